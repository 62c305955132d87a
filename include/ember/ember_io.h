/* Ember tensor files (safetensors, .npy, .npz). Included by ember.h; conventions as in ember.h. */
#ifndef EMBER_EMBER_IO_H
#define EMBER_EMBER_IO_H

#endif
