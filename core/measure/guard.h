/* The device guard: may this run write there? Never to a mounted or held
 * block device, nor to the database, its journals, the plan or hbatest's own
 * files, judged where the target leads (links followed, dangling ones by the
 * file they would create, a loop device by its backing file); to any other
 * block device, and to an existing file with data hbatest did not lay out,
 * only when --destroy-data names it. */
#ifndef HB_GUARD_H
#define HB_GUARD_H

#include <stdbool.h>
#include <stddef.h>

/* The files no step may write: the database (with its -wal, -shm and
 * -journal) and the plan. Call before the dry pass. */
void guard_init(const char *db_path, const char *plan_path);
/* One more file no step may write: a module the plan loads (require). */
void guard_protect(const char *path, const char *what);
/* A step writes to path (or lays it out), of kind enum target_kind: 0, or
 * -errno with err naming the target, where it leads and why. A block device it approves is
 * claimed (opened O_EXCL) once, until guard_release(), so nothing can mount
 * or assemble it mid-run while the steps open it without O_EXCL; a regular
 * file is claimed too (guard_claim_file). A file that exists and holds data
 * passes when it carries hbatest's mark (the extended attribute
 * user.hbatest), an earlier step was let write it, or --destroy-data names
 * it; after guard_set_run, a file it approves is marked. */
int guard_check_write(const char *path, int kind, char *err, size_t len);
/* A file the run writes (a regular file; with create, made empty first when
 * not there, and marked after guard_set_run) is claimed: flock'ed until
 * guard_release(); 0, or -EBUSY with err naming it when another process
 * (another hbatest run) holds its lock. guard_check_write calls it; a step
 * that lays a file out too, with create. */
int guard_claim_file(const char *path, bool create, char *err, size_t len);
/* Mark the file at path as the run's (after guard_set_run), unless it carries
 * a mark already: for a file another program laid out anew at hbatest's
 * request (fio unlinks a file smaller than its job and makes another). */
void guard_mark_file(const char *path);
/* The run's uuid, once it has one (its real pass): the files it writes from
 * now on get it as their mark. */
void guard_set_run(const char *uuid);
/* The i-th claimed device or file and what writing it destroys ("/dev/sdb:
 * ext4 (UUID ...), gpt partition table with 2 partitions", "a.dat: an
 * existing file of 18 B that hbatest did not lay out"); NULL past the last. */
const char *guard_destroys(unsigned i);
/* Close the claims and forget the protected files. */
void guard_release(void);

#endif
