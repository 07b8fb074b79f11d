/* The names of a step's own keys (step_keys.c). */
#ifndef HB_STEP_KEYS_H
#define HB_STEP_KEYS_H

#include <stdbool.h>
#include <stddef.h>

/* One of the step's own keys, which no plugin may take as its name */
bool step_key_builtin(const char *key);
/* -EINVAL, err: "unknown key 'k'" with the nearest key or the list of keys. */
int step_unknown_key(const char *key, char *err, size_t errlen);

#endif
