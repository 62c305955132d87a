#ifndef EMBER_EMBER_EXPORT_H
#define EMBER_EMBER_EXPORT_H
/* The one export macro: libember is built with -fvisibility=hidden and EMBER_BUILDING. */
#if defined(_WIN32)
#  if defined(EMBER_BUILDING)
#    define EMBER_API __declspec(dllexport)
#  else
#    define EMBER_API __declspec(dllimport)
#  endif
#else
#  define EMBER_API __attribute__((visibility("default")))
#endif
#endif
