/* Ember linear algebra. Included by ember.h; conventions as in ember.h. */
#ifndef EMBER_EMBER_LINALG_H
#define EMBER_EMBER_LINALG_H

#endif
