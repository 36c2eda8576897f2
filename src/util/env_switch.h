/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The environment's on/off switches (CUZK_FORCE_PORTABLE, CUZK_NO_IFMA, CUZK_HUGE_PAGES): a switch
 * is on when its variable is set to anything but "" or "0". Internal to the util layer and the
 * layers above.
 */
#ifndef CUZK_UTIL_ENV_SWITCH_H
#define CUZK_UTIL_ENV_SWITCH_H

#include <stdbool.h>

bool cuzk_env_switch(const char *name);

#endif
