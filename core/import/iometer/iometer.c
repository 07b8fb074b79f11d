/* Iometer's results.csv column layouts, as its results writers print them
 * (src/ManagerList.cpp ManagerList::SaveResults; see tests/fixtures/iometer/
 * README.md for the commits). */
#include <stdbool.h>
#include <string.h>

#include "base/csvlines.h"
#include "import/iometer/iometer.h"

static const char *const common_head[] = {
	"Target Type", "Target Name", "Access Specification Name", "# Managers", "# Workers",
	"# Disks", "IOps", "Read IOps", "Write IOps",
};
static const char *const mbps_56[] = { "MBps", "Read MBps", "Write MBps" };
static const char *const mbps_59[] = {
	"MBps (Binary)", "Read MBps (Binary)", "Write MBps (Binary)",
	"MBps (Decimal)", "Read MBps (Decimal)", "Write MBps (Decimal)",
};
static const char *const mbps_80[] = {
	"MiBps (Binary)", "Read MiBps (Binary)", "Write MiBps (Binary)",
	"MBps (Decimal)", "Read MBps (Decimal)", "Write MBps (Decimal)",
};
static const char *const common_tail[] = {
	"Transactions per Second", "Connections per Second", "Average Response Time",
	"Average Read Response Time", "Average Write Response Time", "Average Transaction Time",
	"Average Connection Time", "Maximum Response Time", "Maximum Read Response Time",
	"Maximum Write Response Time", "Maximum Transaction Time", "Maximum Connection Time",
	"Errors", "Read Errors", "Write Errors", "Bytes Read", "Bytes Written", "Read I/Os",
	"Write I/Os", "Connections", "Transactions per Connection",
	"Total Raw Read Response Time", "Total Raw Write Response Time",
	"Total Raw Transaction Time", "Total Raw Connection Time",
	"Maximum Raw Read Response Time", "Maximum Raw Write Response Time",
	"Maximum Raw Transaction Time", "Maximum Raw Connection Time", "Total Raw Run Time",
	"Starting Sector", "Maximum Size", "Queue Depth", "% CPU Utilization", "% User Time",
	"% Privileged Time", "% DPC Time", "% Interrupt Time", "Processor Speed",
	"Interrupts per Second", "CPU Effectiveness", "Packets/Second", "Packet Errors",
	"Segments Retransmitted/Second",
};
static const char *const bins_80[] = {
	"0 to 50 uS", "50 to 100 uS", "100 to 200 uS", "200 to 500 uS", "0.5 to 1 mS",
	"1 to 2 mS", "2 to 5 mS", "5 to 10 mS", "10 to 15 mS", "15 to 20 mS", "20 to 30 mS",
	"30 to 50 mS", "50 to 100 mS", "100 to 200 mS", "200 to 500 mS", "0.5 to 1 S",
	"1 to 2 s", "2 to 4.7 s", "4.7 to 5 s", "5 to 10 s", " >= 10 s",
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The name of field i in the layout with this MBps block and bins. */
static const char *layout_name(unsigned i, const char *const *mbps, unsigned nmbps, bool bins)
{
	if (i < N(common_head))
		return common_head[i];
	i -= N(common_head);
	if (i < nmbps)
		return mbps[i];
	i -= nmbps;
	if (i < N(common_tail))
		return common_tail[i];
	i -= N(common_tail);
	return bins && i < N(bins_80) ? bins_80[i] : NULL;
}

static const char *const wanted[IC_N] = {
	[IC_TYPE] = "Target Type", [IC_NAME] = "Target Name",
	[IC_SPEC] = "Access Specification Name", [IC_MANAGERS] = "# Managers",
	[IC_WORKERS] = "# Workers", [IC_DISKS] = "# Disks", [IC_IOPS] = "IOps",
	[IC_RIOPS] = "Read IOps", [IC_WIOPS] = "Write IOps", [IC_MBPS_DEC] = "MBps (Decimal)",
	[IC_AVG] = "Average Response Time", [IC_AVG_R] = "Average Read Response Time",
	[IC_AVG_W] = "Average Write Response Time", [IC_MAX] = "Maximum Response Time",
	[IC_MAX_R] = "Maximum Read Response Time", [IC_MAX_W] = "Maximum Write Response Time",
	[IC_ERR] = "Errors", [IC_BYTES_R] = "Bytes Read", [IC_BYTES_W] = "Bytes Written",
	[IC_IOS_R] = "Read I/Os", [IC_IOS_W] = "Write I/Os", [IC_RAW_RUN] = "Total Raw Run Time",
	[IC_QD] = "Queue Depth", [IC_CPU] = "% CPU Utilization", [IC_SPEED] = "Processor Speed",
};

int iometer_layout(const struct csvline *h, unsigned first, struct iom_layout *lo,
		   unsigned *bad, const char **want)
{
	unsigned n = h->nf;
	const char *const *mbps = mbps_56;
	unsigned nmbps = N(mbps_56), i, n59 = N(common_head) + N(mbps_59) + N(common_tail);
	bool bins = false;
	const char *mb = n > first + N(common_head) ? csvline_field(h, first + N(common_head)) : "";

	lo->mbps = 56;
	if (!strcmp(mb, mbps_59[0])) {
		/* the inst file's header has the bins after the 59 names
		 * (CGalileoView::PrepareInstantaneousFile) */
		bins = n > first + n59 && !strcmp(csvline_field(h, first + n59), bins_80[0]);
		mbps = mbps_59, nmbps = N(mbps_59), lo->mbps = 59;
	} else if (!strcmp(mb, mbps_80[0])) {
		mbps = mbps_80, nmbps = N(mbps_80), bins = true, lo->mbps = 80;
	}
	for (i = 0; first + i < n; i++) {
		const char *w = layout_name(i, mbps, nmbps, bins);
		const char *got = csvline_field(h, first + i);

		got += i == 0 && got[0] == '\'';

		if (!w || strcmp(got, w)) {
			*bad = first + i;
			*want = w;
			return -1;
		}
	}
	if (layout_name(i, mbps, nmbps, bins)) {
		*bad = n;
		*want = layout_name(i, mbps, nmbps, bins);
		return -1;
	}
	lo->ncols = (int)i;
	for (int c = 0; c < IC_N; c++) {
		lo->idx[c] = -1;
		for (unsigned k = 0; k < i; k++) {
			const char *w = layout_name(k, mbps, nmbps, bins);
			bool bin = c == IC_MBPS_BIN && k == N(common_head);

			if (bin || (wanted[c] && !strcmp(w, wanted[c])))
				lo->idx[c] = (int)(first + k);
		}
	}
	return 0;
}

const char *iometer_col_name(const struct iom_layout *lo, enum iom_col c)
{
	(void)lo;
	return c == IC_MBPS_BIN ? "MBps" : wanted[c];
}

const char *iometer_col_at(const struct iom_layout *lo, unsigned i)
{
	bool bins = lo->ncols == 80;

	if (lo->mbps == 56)
		return layout_name(i, mbps_56, N(mbps_56), bins);
	if (lo->mbps == 59)
		return layout_name(i, mbps_59, N(mbps_59), bins);
	return layout_name(i, mbps_80, N(mbps_80), bins);
}

bool iometer_starts_results(const char *text, size_t len, bool cut, unsigned *line)
{
	static const char want[] = "'Test Type";
	struct csvlines c;
	bool ok = true;

	if (csvlines_read(&c, text, len, 1) == 0 && c.n) {
		const char *f = csvline_field(&c.l[0], 0);
		size_t n = strlen(f);

		ok = !strcmp(f, want) || (cut && c.l[0].nf == 1 && n < sizeof(want) - 1 &&
					  !strncmp(f, want, n));
		*line = c.l[0].line;
	}
	csvlines_free(&c);
	return ok;
}

/* UTF-16 by its byte-order mark, or by ASCII with a NUL after (LE) or
 * before (BE) each character, as "'T" is; NULL: not UTF-16. */
static const char *utf16_refusal(const unsigned char *p, size_t n)
{
	if (n >= 2 && p[0] == 0xff && p[1] == 0xfe)
		return "the file is UTF-16 LE (a byte-order mark FF FE), not UTF-8: save it as "
		       "UTF-8, or convert it: iconv -f UTF-16 -t UTF-8";
	if (n >= 2 && p[0] == 0xfe && p[1] == 0xff)
		return "the file is UTF-16 BE (a byte-order mark FE FF), not UTF-8: save it as "
		       "UTF-8, or convert it: iconv -f UTF-16 -t UTF-8";
	if (n >= 4 && p[0] && !p[1] && p[2] && !p[3])
		return "the file is UTF-16 LE (a NUL byte after each character), not UTF-8: save "
		       "it as UTF-8, or convert it: iconv -f UTF-16LE -t UTF-8";
	if (n >= 4 && !p[0] && p[1] && !p[2] && p[3])
		return "the file is UTF-16 BE (a NUL byte before each character), not UTF-8: save "
		       "it as UTF-8, or convert it: iconv -f UTF-16BE -t UTF-8";
	return NULL;
}

const char *iometer_head_refusal(const char *text, size_t len, bool cut, unsigned *line)
{
	const char *why = utf16_refusal((const unsigned char *)text, len);

	*line = 1;
	if (why || memchr(text, '\0', len))
		return why;
	return iometer_starts_results(text, len, cut, line) ? NULL : IOMETER_NOT_RESULTS;
}
