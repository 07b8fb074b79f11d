/* Chart templates: the shipped ones and what charts need pass; every way to a
 * shell, another file or a name hbatest sets that we know of is refused,
 * with the line and column. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/gnuplot_check.h"
#include "tap.h"
#include "base/util.h"

static const char *const shipped[] = { "bars", "dots", "percentiles", "scatter", "steady",
				       "sweep", "sweep_lat" };

static const char *const good[] = {
	"set title chart_title\nset xlabel xlabel\nplot for [i=1:nseries] datafile index (i-1) "
	"using 1:ycol with linespoints lc rgb colors[i] title key(i, '')\n",
	"f(v) = v > 0 ? sprintf('%.0f', v) : ''\nplot datafile using 1:(f($2)) notitle, \\\n"
	"     mean * inwin(x) with lines title 'mean'\n",
	"if (exists('ylo')) { set yrange [lo125(ylo):hi125(yhi)] } else { set autoscale y }\n",
	"do for [k=1:|levels|] { set xtics add (sprintf('%g', levels[k]) k - 0.5) }\n",
	"stats datafile index 0 using 2 nooutput\nset bmargin key_margin + STATS_max\n",
	"# a comment may say system(\"x\"), load and < pipes\nprint 'it''s fine: ; # <'\n",
	"plot datafile using 1:2:3 with labels offset 0,-0.7 font ',10', \\\n"
	"     datafile using 1:4 with vectors head size 0.1,20,135 lc rgb '#000000'\n",
	"plot datafile with labels offset character 0, character 1 notitle\n",
	"plot datafile using 1:2, keyentry with lines title 'average'\n",
	"array a[3] = [1, 2, 3]\na[2] = 5\nplot (a[2] + x) * 2\n",
	"set label 1 \"text; with # in it\" at graph 0.5, graph 0.5\n",
	"if (1) plot datafile; else plot x\n",
};

static const struct {
	const char *text, *want;
} bad[] = {
	{ "system(\"touch marker\")\n", "1:1: 'system' runs a shell command" },
	{ "v = system('id')\n", "'system' runs a shell command" },
	{ "system 'touch m'\n", "'system' runs" },
	{ "!touch marker\n", "'!' runs the rest of the line in a shell" },
	{ "set title 'a'\n  ! touch m\n", "2:3: '!'" },
	{ "set title `touch m`\n", "1:11: a backquote" },
	{ "# `touch m`\n", "a backquote" },
	{ "s = 'set output \"|sh\"'\n@s\n", "an '@'" },
	{ "print \"it's\" . '@s'\n", "an '@'" },
	{ "load 'x.gp'\n", "'load' runs another script" },
	{ "call 'x.gp'\n", "'call' runs another script" },
	{ "eval 'system(\"id\")'\n", "'eval' runs a string as commands" },
	{ "evaluate 'x'\n", "'evaluate' runs a string" },
	{ "shell\n", "'shell' starts a shell" },
	{ "cd '/tmp'\n", "'cd' changes" },
	{ "import f(x) from 'lib.so'\n", "'import' loads a shared library" },
	{ "save 'x.gp'\n", "'save' writes a file" },
	{ "pause -1\n", "'pause' waits" },
	{ "set output '|sh'\n", "'output' is not an option a chart template may set: hbatest sets the output" },
	{ "set print '|sh'\nprint 'id'\n", "'print' is not an option" },
	{ "set table '|sh'\n", "'table' is not an option" },
	{ "set terminal dumb\n", "'terminal' is not an option" },
	{ "set term lua\n", "'term' is not an option" },
	{ "set palette file '<touch m'\n", "'palette' is not an option" },
	{ "set loadpath '/tmp'\n", "'loadpath'" },
	{ "set dummy t\nplot v\n", "'dummy'" },
	{ "set for [i=1:2] output 'x'\n", "'output' is not an option" },
	{ "plot '< touch m; printf 1'\n", "a chart template plots its data (datafile) or a function of x" },
	{ "plot datafile . '.x'\n", "plots its data" },
	{ "f = '<touch m'\nplot f\n", "plots its data" },
	{ "plot titles[1]\n", "plots its data" },
	{ "plot (1 ? '<touch m' : x)\n", NULL },	/* has x: a function gnuplot evaluates per x */
	{ "plot 1 ? '<touch m' : 0\n", "plots its data" },
	{ "plot [t=0:1] v + t\n", "a range that renames x" },
	{ "plot sample [0:1] v\n", "'sample' renames x" },
	{ "array x[1] = ['<touch m']\nplot x[1]\n", "'x' is the variable of the functions a chart plots" },
	{ "plot x[1]\n", "plots its data" },
	{ "plot x(1)\n", "plots its data" },
	{ "plot datafile, '<touch m'\n", "1:16: a chart template plots" },
	{ "plot datafile title t, '<touch m'\n", "1:24: a chart template plots" },
	{ "plot datafile title offset, '<touch m'\n", "a chart template plots" },
	{ "plot datafile with labels offset 0,1, '<touch m'\n", "a chart template plots" },
	{ "plot datafile with labels offset 0, v\n", "a chart template plots" },
	{ "character = '<touch m'\n", "'character' is a gnuplot coordinate word" },
	{ "x = '<touch m'\n", "'x' is the variable of the functions a chart plots" },
	{ "plot for [x in '<touch m'] x\n", "'x' is the variable of the functions a chart plots" },
	{ "plot for [i=1:2] v . i\n", "plots its data" },
	{ "stats '<touch m'\n", "a chart template plots its data (datafile):" },
	{ "stats x\n", "plots its data (datafile):" },
	{ "plot $data\n", "'$' other than a column" },
	{ "$d << EOD\nEOD\n", "'$' other than a column" },
	{ "datafile = '<touch m'\n", "'datafile' is set by hbatest for every chart: a template may use it, not define it" },
	{ "print (datafile = '<touch m')\nplot datafile\n", "'datafile' is set by hbatest" },
	{ "do for [datafile in '<m'] { plot datafile }\n", "'datafile' is set by hbatest" },
	{ "plot for [datafile in '<m'] datafile\n", "'datafile' is set by hbatest" },
	{ "array datafile[1]\n", "'datafile' is set by hbatest" },
	{ "titles[1] = 'x'\n", "'titles' is set by hbatest" },
	{ "key(i, s) = 'x'\n", "'key' is set by hbatest" },
	{ "fit f(x) datafile via a\n", "'fit' writes a log file" },
	{ "reset\n", "'reset'" },
	{ "set title 'a' \\\n# comment\nsystem('id')\n", "'system'" },
	{ "# comment \\\nsystem('id')\n", NULL },	/* one comment, as gnuplot reads it */
	{ "set title 'a\\\n'; plot x\n", NULL },
	{ "set title 'a\r\n", "a carriage return" },
	{ "set title 'x\xff'\n", "not UTF-8" },
	{ "set title 'a\n", "a string that does not end on its line" },
	{ "if (1) {\nset title 'a'\n", "a '{' that is not closed" },
	{ "}\nsystem('x')\n", "'system'" },
	{ "set title 'a' }\n", "a '}' that closes no '{'" },
	{ "plot (x\n", "a bracket not closed on its line" },
	{ "set title 'a' { plot x }\n", "only if, else and do for open a block" },
	{ "while (1) { }\n", "'while' is not a command a chart template may use" },
	{ "set xlabel 'a' \\ \n", "'\\' is not gnuplot" },
};

static void check_shipped(void)
{
	for (unsigned i = 0; i < ARRAY_SIZE(shipped); i++) {
		char path[128], err[512];
		size_t n;
		char *text;

		snprintf(path, sizeof(path), "reports/gnuplot/%s.gp", shipped[i]);
		text = util_read_file(path, &n);
		if (!text) {
			ok(1, "%s # SKIP run from the source tree", path);
			continue;
		}
		err[0] = '\0';
		ok(gnuplot_check_template(text, n, err, sizeof(err)) == 0, "%s passes", path);
		if (err[0])
			printf("#   %s\n", err);
		free(text);
	}
}

int main(void)
{
	char err[512];

	check_shipped();
	for (unsigned i = 0; i < ARRAY_SIZE(good); i++) {
		err[0] = '\0';
		ok(gnuplot_check_template(good[i], strlen(good[i]), err, sizeof(err)) == 0,
		   "a chart's own gnuplot passes (%u)", i + 1);
		if (err[0])
			printf("#   %s\n", err);
	}
	for (unsigned i = 0; i < ARRAY_SIZE(bad); i++) {
		int rc;

		err[0] = '\0';
		rc = gnuplot_check_template(bad[i].text, strlen(bad[i].text), err, sizeof(err));
		if (!bad[i].want) {
			ok(rc == 0, "passes: %.*s", (int)strcspn(bad[i].text, "\n"), bad[i].text);
		} else {
			ok(rc == -EINVAL && strstr(err, bad[i].want), "refused: %.*s",
			   (int)strcspn(bad[i].text, "\n"), bad[i].text);
		}
		if (bad[i].want ? !strstr(err, bad[i].want) : rc != 0)
			printf("#   got '%s', want '%s'\n", err, bad[i].want ? bad[i].want : "");
	}
	ok(gnuplot_reserved("datafile") && gnuplot_reserved("titles") && gnuplot_reserved("x") &&
	   gnuplot_reserved("character") && !gnuplot_reserved("xlabel"),
	   "datafile, titles, x and character are reserved, xlabel not");
	{
		const char nul[] = "set title 'a'\0system('x')\n";

		ok(gnuplot_check_template(nul, sizeof(nul) - 1, err, sizeof(err)) == -EINVAL &&
		   strstr(err, "a control character (0x00)"), "a NUL byte is refused");
	}
	{
		size_t n = (1u << 20) + 1;
		char *big = malloc(n);

		memset(big, '\n', n);
		ok(gnuplot_check_template(big, n, err, sizeof(err)) == -EINVAL &&
		   strstr(err, "at most"), "a template past 1 MiB is refused");
		free(big);
	}
	return tap_done();
}
