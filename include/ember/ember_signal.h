/* Ember FFT and signal processing. Included by ember.h; conventions as in ember.h. */
#ifndef EMBER_EMBER_SIGNAL_H
#define EMBER_EMBER_SIGNAL_H

#endif
