/* SANITIZE=1 builds: where the sanitizers write their reports. */
#ifndef HB_SANITIZE_H
#define HB_SANITIZE_H

#ifdef HB_SANITIZE
/* Send ASan, LSan and UBSan reports to "<path>.<pid>" from now on. */
void sanitize_set_log(const char *path);
#endif

#endif
