/* fio as a client of fio --server on each host of hosts=: its arguments, and
 * its one JSON object read back as seconds, each the sum of the hosts'. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/fio_hosts.h"
#include "measure/fio_job.h"
#include "measure/fio_status.h"
#include "base/jsonpos.h"
#include "base/strbuf.h"

/* hosts= as a list: host i's "name:port" (into buf) and its port */
static unsigned host_list(const struct step_spec *s, char names[][256], long *ports)
{
	const char *h = fio_step_opt(s, "hosts");
	unsigned n = 0;

	while (h && *h && n < FIO_MAX_HOSTS) {
		size_t len = strcspn(h, ",");
		char *colon;

		snprintf(names[n], 256, "%.*s", (int)len, h);
		colon = strrchr(names[n], ':');
		ports[n] = colon ? strtol(colon + 1, NULL, 10) : 8765;
		n++;
		h += len + (h[len] == ',');
	}
	return n;
}

char **fio_argv(const struct step_spec *s, const char *job)
{
	static char names[FIO_MAX_HOSTS][256];
	long ports[FIO_MAX_HOSTS];
	unsigned n = host_list(s, names, ports), k = 0;
	char **argv = calloc(3 * n + 5, sizeof(*argv));

	if (!argv)
		return NULL;
	argv[k++] = (char *)fio_binary();
	argv[k++] = (char *)"--output-format=json+";
	if (!n)
		argv[k++] = (char *)"--status-interval=1";
	for (unsigned i = 0; i < n; i++) {	/* fio's host,port; each its own status */
		static char client[FIO_MAX_HOSTS][280];
		char *colon = strrchr(names[i], ':');

		snprintf(client[i], sizeof(client[i]), "--client=%.*s,%ld",
			 (int)(colon ? colon - names[i] : (long)strlen(names[i])), names[i], ports[i]);
		argv[k++] = client[i];
		argv[k++] = (char *)"--status-interval=1";
		argv[k++] = (char *)job;
	}
	if (!n)
		argv[k++] = (char *)job;
	return argv;
}

bool fio_hosts_object(const char *text, size_t len)
{
	size_t off = jsonpos_find(text, len, "$.client_stats");

	return off < len && text[off] == '[';
}

/* The string at path of one entry, unquoted (no escapes in fio's names). */
static void str_at(const char *e, size_t len, const char *path, char *buf, size_t cap)
{
	size_t off = jsonpos_find(e, len, path);
	size_t n = off < len && e[off] == '"' ? strcspn(e + off + 1, "\"") : 0;

	snprintf(buf, cap, "%.*s", (int)(n < cap ? n : cap - 1), n ? e + off + 1 : "");
}

struct entries {
	size_t *off, *len;
	int *host;
	unsigned n;
};

/* Which host of the list an entry is: by name and port, else by port alone. */
static int entry_host(const char *e, size_t len, char names[][256], const long *ports,
		      unsigned n)
{
	char name[256], want[300];
	long port;
	int by_port = -1;

	str_at(e, len, "$.jobname", name, sizeof(name));
	if (!strcmp(name, "All clients"))
		return -1;
	str_at(e, len, "$.hostname", name, sizeof(name));
	port = strtol(e + jsonpos_find(e, len, "$.port"), NULL, 10);
	snprintf(want, sizeof(want), "%s:%ld", name, port);
	for (unsigned i = 0; i < n; i++) {
		if (!strcmp(names[i], want))
			return (int)i;
		if (ports[i] == port)
			by_port = by_port == -1 ? (int)i : -2;
	}
	return by_port >= 0 ? by_port : -1;
}

/* Every element of client_stats[]: where it is, whose. */
static int list_entries(const char *t, size_t len, char names[][256], const long *ports,
			unsigned nhosts, struct entries *en)
{
	size_t i = jsonpos_find(t, len, "$.client_stats") + 1, cap = 0;

	while (i < len) {
		size_t off = 0, end = 0;
		const char *what;

		while (i < len && strchr(" \t\r\n,", t[i]))
			i++;
		if (i >= len || t[i] != '{')
			break;
		jsonpos_check(t + i, len - i, &off, &what, &end);
		if (!end)
			break;
		if (en->n == cap) {
			cap = cap * 2 + 16;
			en->off = realloc(en->off, cap * sizeof(*en->off));
			en->len = realloc(en->len, cap * sizeof(*en->len));
			en->host = realloc(en->host, cap * sizeof(*en->host));
			if (!en->off || !en->len || !en->host)
				return -ENOMEM;
		}
		en->off[en->n] = i;
		en->len[en->n] = end;
		en->host[en->n++] = entry_host(t + i, end, names, ports, nhosts);
		i += end;
	}
	return 0;
}

struct hosts_run {
	const struct step_spec *spec;
	const char *text;
	struct entries en;
	char (*names)[256];
	unsigned n;
	struct fio_cum *cum;	/* 2 per host: before, now */
	unsigned pos[FIO_MAX_HOSTS], seen[FIO_MAX_HOSTS];
	struct hist sec[2], msec[2];
};

/* Host h's next status, as its second t, joined to smp, msec and json: 1;
 * 0 when it has no more. */
static int host_second(struct hosts_run *h, unsigned i, uint64_t t, struct step_sample *smp,
		       struct strbuf *json)
{
	struct fio_cum *now = &h->cum[2 * i + (h->seen[i] & 1)];
	struct fio_cum *before = &h->cum[2 * i + !(h->seen[i] & 1)];
	struct step_sample hs;
	unsigned e = h->pos[i];

	for (;; e++) {
		while (e < h->en.n && h->en.host[e] != (int)i)
			e++;
		if (e >= h->en.n)
			return 0;
		fio_parse_status(h->text + h->en.off[e], h->en.len[e], "$", now);
		if (!fio_cum_behind(now, before))
			break;
	}
	h->pos[i] = e + 1;
	h->seen[i]++;
	fio_second(now, before, h->spec->wl.workers, h->spec->wl.ramp, t, &hs, h->sec);
	for (int d = 0; d < 2; d++) {
		smp->ops[d] += hs.ops[d];
		smp->bytes[d] += hs.bytes[d];
		hist_merge(&h->msec[d], &h->sec[d]);
	}
	if (hs.secs > smp->secs)
		smp->secs = hs.secs;
	sb_printf(json, "%s", json->s && json->s[1] ? "," : "");
	sb_json_str(json, h->names[i]);
	sb_printf(json, ":{\"read_ops\":%llu,\"write_ops\":%llu,\"read_bytes\":%llu,"
		  "\"write_bytes\":%llu,\"read_lat_mean_us\":%.3f,\"write_lat_mean_us\":%.3f,"
		  "\"secs\":%.4f}", (unsigned long long)hs.ops[0], (unsigned long long)hs.ops[1],
		  (unsigned long long)hs.bytes[0], (unsigned long long)hs.bytes[1],
		  hs.lat_mean[0], hs.lat_mean[1], hs.secs);
	return 1;
}

/* Each second: every host's next status, summed, to fn. */
static int hosts_seconds(struct hosts_run *h, fio_second_fn fn, void *ctx)
{
	int rc = 0;

	for (uint64_t t = 0; !rc; t++) {
		struct step_sample smp = { .t = t, .ramp = t < h->spec->wl.ramp };
		struct strbuf json = { 0 };
		unsigned got = 0;

		hist_reset(&h->msec[0]);
		hist_reset(&h->msec[1]);
		sb_printf(&json, "{");
		for (unsigned i = 0; i < h->n; i++)
			got += (unsigned)host_second(h, i, t, &smp, &json);
		sb_printf(&json, "}");
		if (!got) {
			sb_free(&json);
			break;
		}
		fio_sample_lat(&smp, h->msec);
		smp.hosts_json = sb_take(&json);
		rc = fn(ctx, &smp, h->msec);
	}
	return rc;
}

/* "'node2:8765' from second 3": each host missing from the end, the first
 * second (t) it has none of. */
static void gone_at(const struct hosts_run *h, unsigned most, char *gone, size_t glen)
{
	gone[0] = '\0';
	for (unsigned i = 0; i < h->n; i++) {
		size_t used = strlen(gone);

		if (h->seen[i] < most && used + 1 < glen)
			snprintf(gone + used, glen - used, "%s'%s' from second %u", used ? ", " : "",
				 h->names[i], h->seen[i]);
	}
}

int fio_hosts_take(const struct step_spec *s, const char *text, size_t len, fio_second_fn fn,
		   void *ctx, char *missing, size_t mlen, char *gone, size_t glen)
{
	static char names[FIO_MAX_HOSTS][256];
	long ports[FIO_MAX_HOSTS];
	struct hosts_run *h = calloc(1, sizeof(*h));
	unsigned most = 0;
	int rc;

	missing[0] = gone[0] = '\0';
	if (!h)
		return -ENOMEM;
	*h = (struct hosts_run){ .spec = s, .text = text, .names = names };
	h->n = host_list(s, names, ports);
	h->cum = calloc(2 * (h->n ? h->n : 1), sizeof(*h->cum));
	rc = h->cum ? list_entries(text, len, names, ports, h->n, &h->en) : -ENOMEM;
	for (unsigned i = 0; !rc && i < 2 * h->n; i++) {
		hist_reset(&h->cum[i].h[0]);
		hist_reset(&h->cum[i].h[1]);
	}
	if (!rc)
		rc = hosts_seconds(h, fn, ctx);
	for (unsigned i = 0; i < h->n; i++)
		most = h->seen[i] > most ? h->seen[i] : most;
	for (unsigned i = 0; i < h->n; i++) {
		size_t used = strlen(missing);

		if ((!h->seen[i] || h->seen[i] + 1 < most) && used + 1 < mlen)
			snprintf(missing + used, mlen - used, "%s'%s' (%u of %u s)", used ? ", " : "",
				 names[i], h->seen[i], most);
	}
	gone_at(h, most, gone, glen);
	free(h->en.off);
	free(h->en.len);
	free(h->en.host);
	free(h->cum);
	free(h);
	return rc;
}
