/* Small helpers shared by the core. */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <signal.h>
#include <unistd.h>
#include <uuid/uuid.h>

#include "base/util.h"

int util_parse_size(const char *s, uint64_t *out)
{
	char *end;
	double v, mult = 1;

	if (!s || !*s || !(isdigit((unsigned char)*s) || *s == '.'))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s)
		return -EINVAL;
	switch (tolower((unsigned char)*end)) {
	case 'k': mult = 1024.0; end++; break;
	case 'm': mult = 1024.0 * 1024; end++; break;
	case 'g': mult = 1024.0 * 1024 * 1024; end++; break;
	case 't': mult = 1024.0 * 1024 * 1024 * 1024; end++; break;
	case 'p': mult = 1024.0 * 1024 * 1024 * 1024 * 1024; end++; break;
	}
	if (*end == 'i' || *end == 'I')	/* "4KiB" */
		end++;
	if (*end == 'b' || *end == 'B')
		end++;
	if (*end)
		return -EINVAL;
	v *= mult;
	if (v < 0 || v > 1.8e19 || v != floor(v))
		return -EINVAL;
	*out = (uint64_t)v;
	return 0;
}

void util_format_size(uint64_t b, char *buf, size_t len)
{
	static const char units[] = "kmgtp";
	int u = -1;

	while (b >= 1024 && b % 1024 == 0 && u < 4) {
		b /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%llu", (unsigned long long)b);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)b, units[u]);
}

void util_format_duration(double secs, char *buf, size_t len)
{
	unsigned long long s = (unsigned long long)(secs + 0.5);

	if (s >= 3600)
		snprintf(buf, len, "%lluh%02llum%02llus", s / 3600, s / 60 % 60, s % 60);
	else if (s >= 60)
		snprintf(buf, len, "%llum%02llus", s / 60, s % 60);
	else
		snprintf(buf, len, "%llus", s);
}

void util_format_estimate(double real_secs, double sim_secs, char *buf, size_t len)
{
	char real[32], sim[32];

	util_format_duration(real_secs, real, sizeof(real));
	util_format_duration(sim_secs, sim, sizeof(sim));
	if (sim_secs <= 0)
		snprintf(buf, len, "%s", real);
	else if (real_secs <= 0)
		snprintf(buf, len, "%s simulated", sim);
	else
		snprintf(buf, len, "%s real plus %s simulated", real, sim);
}

void util_iso8601(time_t secs, unsigned ms, char *buf, size_t len)
{
	struct tm tm;

	assert(ms < 1000);
	gmtime_r(&secs, &tm);
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%03uZ", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
}

void util_utc_now(char *buf, size_t len)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	util_iso8601(ts.tv_sec, (unsigned)(ts.tv_nsec / 1000000), buf, len);
}

void util_uuid(char out[37])
{
	uuid_t u;

	uuid_generate_random(u);
	uuid_unparse_lower(u, out);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++) {	/* splitmix64 */
		uint64_t z = (seed += 0x9e3779b97f4a7c15ull);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		r->s[i] = z ^ (z >> 31);
	}
}

void util_fill_random(void *buf, size_t len, uint64_t seed)
{
	struct rng r;
	unsigned char *p = buf;
	size_t i;

	rng_seed(&r, seed);
	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t v = rng_next(&r);

		memcpy(p + i, &v, 8);
	}
	for (; i < len; i++)
		p[i] = (unsigned char)rng_next(&r);
}

char *util_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *data = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	errno = 0;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			char *p = realloc(data, cap = cap ? cap * 2 : 8192);

			if (!p) {
				free(data);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			data = p;
		}
		size_t got = fread(data + n, 1, cap - n - 1, f);

		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {	/* EISDIR for a folder */
		int e = errno ? errno : EIO;

		free(data);
		fclose(f);
		errno = e;
		return NULL;
	}
	fclose(f);
	data[n] = '\0';
	if (len)
		*len = n;
	return data;
}

/* Seconds since process pid started (its starttime in /proc against the
 * uptime), or -1 when /proc does not say. */
static double process_age(int64_t pid)
{
	char path[64], buf[1024];
	unsigned long long start;
	double up;
	size_t n = 0;
	char *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%lld/stat", (long long)pid);
	if ((f = fopen(path, "r"))) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	/* after the name in parentheses (which may hold anything): the state,
	 * 18 fields, then field 22, the start in clock ticks after boot */
	if (!(p = strrchr(buf, ')')) ||
	    sscanf(p + 1, " %*c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
		   "%*s %*s %*s %llu", &start) != 1 || !(f = fopen("/proc/uptime", "r")))
		return -1;
	n = (size_t)fscanf(f, "%lf", &up);
	fclose(f);
	return n == 1 ? up - (double)start / (double)sysconf(_SC_CLK_TCK) : -1;
}

int util_process_state(const char *host, int64_t pid, double beat_age)
{
	char me[256] = "";
	double age;

	gethostname(me, sizeof(me) - 1);
	if (!host || strcmp(host, me) || pid <= 0)
		return -1;
	if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
		return 0;
	/* the run's process beat after it started; one that started after the
	 * run's last heartbeat (5 s for clocks) has its pid, reused after a
	 * reboot or a long time: not the run's. Only past the minute after
	 * which a heartbeat counts as stale (run_state), so that a step of the
	 * wall clock cannot make a live run look dead. */
	age = process_age(pid);
	return !(beat_age > 60 && age >= 0 && age < beat_age - 5);
}

char *util_strdup_printf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

bool util_same_dir(const char *a, const char *b)
{
	struct stat sa, sb;

	if (stat(a, &sa) != 0 || stat(b, &sb) != 0)
		return !strcmp(a, b);
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool util_note_line(const char **s, const char **line, size_t *len)
{
	while (**s) {
		const char *p = *s;
		size_t n = strcspn(p, "\n");

		*s = p + n + (p[n] == '\n');
		while (n && strchr(" \t\r", p[n - 1]))
			n--;
		if (strspn(p, " \t") < n) {
			*line = p;
			*len = n;
			return true;
		}
	}
	return false;
}

int util_cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

unsigned util_edit_distance(const char *a, const char *b)
{
	unsigned la = (unsigned)strlen(a), lb = (unsigned)strlen(b), d[256];

	if (lb >= 255)
		return 99;
	for (unsigned j = 0; j <= lb; j++)
		d[j] = j;
	for (unsigned i = 1; i <= la; i++) {
		unsigned prev = d[0], tmp;

		d[0] = i;
		for (unsigned j = 1; j <= lb; j++) {
			tmp = d[j];
			d[j] = a[i - 1] == b[j - 1] ? prev
				: 1 + (prev < d[j] ? (prev < d[j - 1] ? prev : d[j - 1])
						   : (d[j] < d[j - 1] ? d[j] : d[j - 1]));
			prev = tmp;
		}
	}
	return d[lb];
}
