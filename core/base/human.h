/* Numbers for people: rates, throughputs, latencies and byte counts scaled to
 * the unit that keeps them short (the live and status lines of a run; the
 * database keeps the exact values). */
#ifndef HB_HUMAN_H
#define HB_HUMAN_H

#include <stddef.h>
#include <stdint.h>

/* Operations a second: "850", "16.5k", "1.23M", "4.47G". */
void human_count(double v, char *buf, size_t len);
/* A throughput given in MB/s (10^6 bytes): "0.52 MB/s", "67.7 MB/s",
 * "1.88 GB/s", "4.47 TB/s". */
void human_mbps(double mbps, char *buf, size_t len);
/* A latency given in us: "0.21 us", "850 us", "1.63 ms", "24.1 ms", "2.10 s". */
void human_usecs(double us, char *buf, size_t len);
/* Bytes in binary units: "512 B", "1.50 KiB", "215 MiB", "2.00 GiB". */
void human_bytes(uint64_t bytes, char *buf, size_t len);

#endif
