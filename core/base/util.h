/* Small helpers shared by the core: sizes, clocks, time stamps, uuids, the RNG. */
#ifndef HB_UTIL_H
#define HB_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NSEC_PER_SEC 1000000000ull

/* "4k", "1m", "0.5k", "4096" -> bytes (binary units); 0 or -EINVAL. */
int util_parse_size(const char *s, uint64_t *out);
/* 4096 -> "4k", 1048576 -> "1m", 512 -> "512". */
void util_format_size(uint64_t bytes, char *buf, size_t len);
/* Seconds as "1h02m03s" / "4m05s" / "12s". */
void util_format_duration(double secs, char *buf, size_t len);
/* "15m00s", "15m00s simulated" (a simulating engine's virtual clock runs
 * far faster than real time) or "1m00s real plus 15m00s simulated". */
void util_format_estimate(double real_secs, double sim_secs, char *buf, size_t len);
/* secs since 1970 and ms (< 1000) as UTC in ISO 8601 with milliseconds
 * ("2026-11-30T10:21:45.123Z"): every time stamp hbatest writes. */
void util_iso8601(time_t secs, unsigned ms, char *buf, size_t len);
/* The current UTC time as util_iso8601 writes it. */
void util_utc_now(char *buf, size_t len);
/* A random (version 4) uuid, 36 characters + NUL. */
void util_uuid(char out[37]);
/* Fill buf with random bytes (seeded, fast, not cryptographic). */
void util_fill_random(void *buf, size_t len, uint64_t seed);
char *util_read_file(const char *path, size_t *len);
/* Is the process that ran a run still there? 1: alive on this host, 0: gone
 * from this host (or its pid now another process's: one younger than the
 * run's last heartbeat, beat_age seconds ago; < 0: not known), -1: cannot
 * tell (another host, or no pid). */
int util_process_state(const char *host, int64_t pid, double beat_age);
char *util_strdup_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Do paths a and b name one folder (device and inode; the text when either
 * cannot be read)? */
bool util_same_dir(const char *a, const char *b);
/* The next line of a note's text at *s (trailing blanks and CR cut, blank
 * lines skipped): true with *line and *len set and *s past it, false at
 * the end. A note of several lines is stored as so many notes. */
bool util_note_line(const char **s, const char **line, size_t *len);
/* qsort's comparator for an array of strings (char *), in strcmp's order. */
int util_cmp_str(const void *a, const void *b);
/* The Levenshtein distance of a and b (insertions, deletions and
 * substitutions of bytes); 99 when b is 255 bytes or longer. */
unsigned util_edit_distance(const char *a, const char *b);

/* Clock id's time in ns */
static inline uint64_t util_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

static inline uint64_t util_now_ns(void)
{
	return util_clock_ns(CLOCK_MONOTONIC);
}

/* The CPU time of the calling thread: what a limit on a plan's or a report
 * program's Lua counts, so that a loaded host's waits are not counted. */
static inline uint64_t util_thread_cpu_ns(void)
{
	return util_clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

/* xoshiro256**: the generator every worker owns; seeded with splitmix64. */
struct rng {
	uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);

static inline uint64_t rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, n), unbiased (Lemire's multiply-and-reject). */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)rng_next(r) * n;
	uint64_t low = (uint64_t)m;

	if (low < n) {
		uint64_t threshold = -n % n;

		while (low < threshold) {
			m = (unsigned __int128)rng_next(r) * n;
			low = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

#endif
