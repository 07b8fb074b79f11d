/* Where a step's workers run: the `cpus` and `numa` keys, the NUMA node of a
 * target's device, pinning a worker thread and binding its buffers. */
#ifndef HB_PLACEMENT_H
#define HB_PLACEMENT_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

struct workload;

/* The numa= step key */
enum numa_mode {
	NUMA_AUTO,	/* the node's CPUs, narrowed to those taking the device's interrupts */
	NUMA_NODE,	/* the CPUs of the targets' NUMA node */
	NUMA_NONE,	/* the kernel's choice */
};

struct placement {
	bool pin;		/* workers are pinned to cpus */
	cpu_set_t cpus;
	int node;		/* NUMA node of the targets' device; -1: unknown */
	char text[128];		/* steps.placement: "cpus=0-1 node=0" or "none" */
};

/* Parse a CPU list ("0-7,16-23") and check that every CPU in it is present
 * and online (sysfs under $HBATEST_SYSFS_ROOT) and in this process's cpuset.
 * 0, or -EINVAL with a message naming the CPUs that are not. */
int placement_parse_cpus(const char *list, cpu_set_t *out, char *err, size_t len);
/* "0-3,8": a CPU set as a list */
void placement_format_cpus(const cpu_set_t *set, char *buf, size_t len);
/* The NUMA node of the device under a file or block device; -1 when unknown. */
int placement_target_node(const char *path);
/* Choose: the cpus= list if given; else with numa=node the CPUs of the node
 * every target's device is on; with numa=auto those, narrowed to the CPUs
 * that take the targets' interrupts when there are fewer of them and at
 * least one per worker; else none. 0 or -errno with a message. */
int placement_decide(const struct workload *wl, const char *cpus, enum numa_mode numa,
		     struct placement *p, char *err, size_t len);
/* Pin the calling thread to p's CPUs (when it pins). 0 or -errno. */
int placement_pin_self(const struct placement *p);
/* Ask for buf's pages on p's node (MPOL_PREFERRED through mbind(2)); call
 * before the pages are first touched. Best effort. */
void placement_bind_memory(const struct placement *p, void *buf, size_t len);

#endif
