/* Ember random numbers. Included by ember.h; conventions as in ember.h. */
#ifndef EMBER_EMBER_RANDOM_H
#define EMBER_EMBER_RANDOM_H

#endif
