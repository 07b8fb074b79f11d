/* What the report's Lua API (report.c) and its charts (report_chart.c) both
 * use: the report a Lua state runs, its refusals, its files (found among its
 * assets, written inside its folder only, read with a cap) and text made
 * UTF-8. Calls neither of them. */
#include <errno.h>
#include <fcntl.h>
#include <lauxlib.h>
#include <limits.h>
#include <lua.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/report_int.h"
#include "base/paths.h"
#include "base/utf8.h"

struct report *report_of(lua_State *L)
{
	struct report *r;

	lua_getfield(L, LUA_REGISTRYINDEX, REG_REPORT);
	r = lua_touserdata(L, -1);
	lua_pop(L, 1);
	return r;
}

/* ---- files: where the report finds its parts, where it may write ------- */
/* The program's own folder first (a --template beside its templates). */
bool report_find_asset(struct report *r, const char *rel, char *out, size_t len)
{
	if (snprintf(out, len, "%s/%s", r->progdir, rel) < (int)len && access(out, R_OK) == 0)
		return true;
	return paths_find(PATHS_REPORTS, NULL, rel, out, len);
}

/* A relative path with no '..', no empty and no absolute part. */
bool report_path_ok(const char *rel)
{
	char copy[PATH_MAX], *save = NULL;

	if (!*rel || rel[0] == '/' || strlen(rel) >= sizeof(copy) || strstr(rel, "//"))
		return false;
	snprintf(copy, sizeof(copy), "%s", rel);
	for (char *p = strtok_r(copy, "/", &save); p; p = strtok_r(NULL, "/", &save))
		if (!strcmp(p, "..") || !strcmp(p, "."))
			return false;
	return rel[strlen(rel) - 1] != '/';
}

/* The message is kept to be known again in traceback(). */
int report_refuse(lua_State *L, const char *fmt, ...)
{
	struct report *r = report_of(L);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->plain_err, sizeof(r->plain_err), fmt, ap);
	va_end(ap);
	lua_pushstring(L, r->plain_err);
	return lua_error(L);
}

/* An I/O error of the report's own files (a full disk, a read-only folder):
 * raised with the message alone, no traceback, as it is no bug of the
 * program. */
static void io_error(lua_State *L, const char *what, const char *path, int err)
{
	report_refuse(L, "cannot %s '%s': %s", what, path, strerror(err));
}

/* Write text to DIR/rel, making its folders; raises on failure. */
void report_write_file(lua_State *L, const char *rel, const char *text, size_t n)
{
	struct report *r = report_of(L);
	char path[PATH_MAX];
	int fd, err;

	if (!report_path_ok(rel))
		luaL_error(L, "report.write: '%s' is not a path inside the report's folder "
			   "(relative, no '..')", rel);
	snprintf(path, sizeof(path), "%s/%s", r->o->dir, rel);
	for (char *s = strchr(path + strlen(r->o->dir) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			io_error(L, "create", path, errno);
		*s = '/';
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		io_error(L, "write", path, errno);
	for (size_t done = 0; done < n;) {
		ssize_t w = write(fd, text + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			err = w < 0 ? errno : ENOSPC;
			close(fd);
			io_error(L, "write", path, err);
		}
		done += (size_t)w;
	}
	if (close(fd) < 0)
		io_error(L, "write", path, errno);
}

/* A file of the report's that cannot be read: where the program asked,
 * what, why; no traceback, as no bug of the program. */
static void refuse_file(lua_State *L, const char *path, const char *why)
{
	luaL_where(L, 1);
	report_refuse(L, "%scannot read '%s': %s", lua_tostring(L, -1), path, why);
}

void report_push_file(lua_State *L, const char *path, size_t max)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);	/* (a FIFO: no wait for a writer) */
	struct stat st = { 0 };
	size_t total = 0;
	luaL_Buffer b;

	if (fd < 0)
		refuse_file(L, path, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > max) {
		bool reg = S_ISREG(st.st_mode);

		close(fd);
		refuse_file(L, path, reg ? "larger than a report's own file may be" :
			    "not a regular file");
	}
	luaL_buffinit(L, &b);
	for (;;) {
		ssize_t got = read(fd, luaL_prepbuffer(&b), LUAL_BUFFERSIZE);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0 || (total += (size_t)got) > max) {
			close(fd);
			if (got < 0 || total > max)
				refuse_file(L, path, got < 0 ? strerror(errno) :
					    "larger than a report's own file may be");
			break;
		}
		luaL_addsize(&b, (size_t)got);
	}
	luaL_pushresult(&b);
}

/* U+FFFE and U+FFFF: UTF-8, and yet no character of XML or HTML. */
bool report_nonchar(const unsigned char *p, size_t len)
{
	return len == 3 && p[0] == 0xef && p[1] == 0xbf && (p[2] == 0xbe || p[2] == 0xbf);
}

void report_push_utf8(lua_State *L, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t at = utf8_invalid_at(s, n);
	luaL_Buffer b;

	if (at == n && !memmem(s, n, "\xef\xbf", 2)) {	/* valid, no U+FFFx: the common case */
		lua_pushlstring(L, s, n);
		return;
	}
	luaL_buffinit(L, &b);
	for (size_t i = 0; i < n;) {
		size_t len = utf8_len(p + i, n - i);

		if (len && !report_nonchar(p + i, len)) {
			luaL_addlstring(&b, s + i, len);
			i += len;
		} else {
			luaL_addstring(&b, "\xef\xbf\xbd");	/* U+FFFD */
			i += len ? len : 1;
		}
	}
	luaL_pushresult(&b);
}
