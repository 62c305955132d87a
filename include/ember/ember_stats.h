/* Ember statistics, features and losses. Included by ember.h; conventions as in ember.h. */
#ifndef EMBER_EMBER_STATS_H
#define EMBER_EMBER_STATS_H

#endif
