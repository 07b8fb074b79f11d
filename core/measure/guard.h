/* The device guard: may this run write there? Never to a mounted or held
 * block device, nor to the database, its journals, the plan or hbatest's own
 * files, judged where the target leads (links followed, dangling ones by the
 * file they would create, a loop device by its backing file); to any other
 * block device only when --destroy-data names it. */
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
 * file is claimed too (guard_claim_file). */
int guard_check_write(const char *path, int kind, char *err, size_t len);
/* A file the run writes (a regular file; with create, made empty first when
 * not there) is claimed: flock'ed until guard_release(); 0, or -EBUSY with
 * err naming it when another process (another hbatest run) holds its lock.
 * guard_check_write calls it; a step that lays a file out too, with create. */
int guard_claim_file(const char *path, bool create, char *err, size_t len);
/* The i-th claimed device and what writing it destroys ("/dev/sdb: ext4
 * (UUID ...), gpt partition table with 2 partitions"); NULL past the last. */
const char *guard_destroys(unsigned i);
/* Close the claims and forget the protected files. */
void guard_release(void);

#endif
