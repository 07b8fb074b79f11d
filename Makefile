# hbatest: one non-recursive Makefile.
#   make            ./hbatest and plugins/*.so
#   make check      every TAP test, run by prove, JOBS=4 files at a time
#   make lint       the layout rules (tests/dev/lint.sh)
#   make bench      hbatest side by side with fio (tests/dev/bench.sh), the fio
#                   profile, ceiling and null-per-core rows (bench-ceiling.sh),
#                   the sim engine's speed (tests/dev/bench-sim.sh) and a year of nights
#   make bench-year list, show, report, sql, merge on 1,000 runs (tests/dev/bench-year.sh)
#   make bench-report  the time of a report of two simulated plans/raid5.lua runs
#   make mutate     plant each mutant of tests/dev/mutate.sh, expect its tests to fail
#   make fuzz       libFuzzer on the readers of untrusted files (tests/fuzz/), with
#                   clang, ASan and UBSan, FUZZ_SECONDS each (FUZZ="fio ..." for some)
#   make install PREFIX=/usr/local   (DESTDIR honoured; tests/install.t lists what)
#   V=1 shows full command lines; WERROR=1 turns warnings into errors (CI).
#   SANITIZE=1 builds with ASan+UBSan and `make check` fails on any report.

VERSION   := 0.1.0
PREFIX    ?= /usr/local
BINDIR    := $(PREFIX)/bin
PLUGINDIR := $(PREFIX)/lib/hbatest/plugins
DATADIR   := $(PREFIX)/share/hbatest
MANDIR    := $(PREFIX)/share/man
DOCDIR    := $(PREFIX)/share/doc/hbatest
BASHCOMPDIR := $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  := $(PREFIX)/share/zsh/vendor-completions

CC        ?= cc
PKG_CONFIG ?= pkg-config
LUA_PKG   := $(shell $(PKG_CONFIG) --exists lua5.4 && echo lua5.4 || echo lua-5.4)

CFLAGS    ?= -O2 -g
WARNFLAGS := -Wall -Wextra -Wshadow -Wpointer-arith -Wstrict-prototypes \
             -Wmissing-prototypes -Wformat=2 -Wno-format-nonliteral
ifeq ($(WERROR),1)
WARNFLAGS += -Werror
endif
# SANITIZE=1: objects and unit tests go to build/san/; the outputs that live at
# fixed paths (./hbatest, plugins/*.so, build/tests/plugins/*.so) are rebuilt
# whenever the mode differs from the last build's (build/mode), so a plain and
# a sanitized build never mix, one after the other, both ways.
ifeq ($(SANITIZE),1)
# (GCC's "undefined" leaves out float-cast-overflow: a double too big for the
# integer it is cast to, as the sim engine's clock and sizes could be.)
SANFLAGS  := -fsanitize=address,undefined,float-cast-overflow \
             -fno-omit-frame-pointer -fno-sanitize-recover=all -DHB_SANITIZE
B         := build/san
MODE      := sanitize
else
SANFLAGS  :=
B         := build
MODE      := plain
endif
MODE_STAMP := build/mode
# (the fuzz goals build apart, in build/fuzz/: they leave the mode as it is,
# as tests/fuzz_smoke.t runs `make fuzz-build` inside a `make check SANITIZE=1`)
FUZZ_ONLY := $(if $(MAKECMDGOALS),$(if $(filter-out fuzz fuzz-build,$(MAKECMDGOALS)),,1))
ifneq ($(FUZZ_ONLY),1)
$(shell mkdir -p build && { [ "$$(cat $(MODE_STAMP) 2>/dev/null)" = $(MODE) ] || \
	echo $(MODE) > $(MODE_STAMP); })
endif

# The git commit built (hbatest --version, runs.build_commit): 12 hex digits,
# -dirty when tracked files have changes; empty outside a git checkout (a
# tarball). build/commit holds the last one built and is rewritten only when
# it changes, so a new commit rebuilds core/base/build_info.o and relinks,
# and nothing else.
BUILD_COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null)$(shell \
	git rev-parse --verify -q HEAD >/dev/null 2>&1 && ! git diff --quiet HEAD -- 2>/dev/null && echo -dirty)
COMMIT_STAMP := build/commit
$(shell mkdir -p build && { [ -f $(COMMIT_STAMP) ] && [ "$$(cat $(COMMIT_STAMP))" = "$(BUILD_COMMIT)" ] || \
	echo "$(BUILD_COMMIT)" > $(COMMIT_STAMP); })

BASEFLAGS := -std=gnu11 -pthread -D_GNU_SOURCE $(WARNFLAGS) $(SANFLAGS)
CORE_CPPFLAGS := -Icore $(shell $(PKG_CONFIG) --cflags $(LUA_PKG) sqlite3 uuid) \
                 -DHB_VERSION='"$(VERSION)"' -DHB_PLUGIN_DIR='"$(PLUGINDIR)"' \
                 -DHB_DATA_DIR='"$(DATADIR)"'
CORE_LIBS := $(shell $(PKG_CONFIG) --libs $(LUA_PKG) sqlite3 blkid uuid) -lcsv -ldl -lm -pthread

ifeq ($(V),1)
Q :=
else
Q := @
endif

# core/'s folders by concern (HACKING.md, Layout: base, measure, plan, store,
# import and its formats, report, run, cmd); objects mirror them under $(B)/core/
CORE_SRCS := $(filter-out core/cmd/main.c,$(wildcard core/*/*.c core/*/*/*.c))
CORE_OBJS := $(patsubst core/%.c,$(B)/core/%.o,$(CORE_SRCS)) $(B)/core/store/schema.o \
             $(B)/core/store/migrations.o
MAIN_OBJ  := $(B)/core/cmd/main.o

ENGINE_SRCS := $(filter-out %/skeleton.c,$(wildcard plugins/engines/*.c))
PROBE_SRCS  := $(filter-out %/skeleton.c,$(wildcard plugins/probes/*.c))
PLUGINS     := $(patsubst plugins/engines/%.c,plugins/%.so,$(ENGINE_SRCS)) \
               $(patsubst plugins/probes/%.c,plugins/%.so,$(PROBE_SRCS))
# The skeletons a plugin author copies (docs/plugin-abi.md): built by every
# make, so they keep compiling, but not installed nor on the default plugin
# path, where their facts and names would join every run's.
SKELETONS   := build/skeleton/skeleton.so build/skeleton/skeleton_probe.so

UNIT_SRCS  := $(wildcard tests/unit/*.c)
UNIT_TESTS := $(patsubst tests/unit/%.c,$(B)/tests/%.t,$(UNIT_SRCS))
FIXTURE_PLUGINS := $(patsubst tests/fixtures/plugins/%.c,build/tests/plugins/%.so,\
                   $(wildcard tests/fixtures/plugins/*.c))

# per-plugin link flags
LIBS_io_uring := $(shell $(PKG_CONFIG) --libs liburing)
LIBS_libaio   := -laio
LIBS_sim      := -lm
LIBS_pcie     := -lpci

.PHONY: all check lint bench bench-year bench-report install uninstall clean
all: hbatest $(PLUGINS) $(SKELETONS)

# The binary and the plugins are linked to NAME.tmp and renamed over NAME: a
# make while tests or a run use them (a new commit relinks hbatest) never
# leaves a half-written file to exec or dlopen (it gave "Permission denied").
hbatest: $(MAIN_OBJ) $(CORE_OBJS) $(MODE_STAMP)
	@echo "  LD      $@"
	$(Q)$(CC) $(SANFLAGS) $(CFLAGS) $(LDFLAGS) -o $@.tmp $(MAIN_OBJ) $(CORE_OBJS) $(CORE_LIBS) && mv -f $@.tmp $@

$(B)/core/%.o: core/%.c
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(BASEFLAGS) $(CORE_CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(B)/core/base/build_info.o: $(COMMIT_STAMP)
$(B)/core/base/build_info.o: CORE_CPPFLAGS += -DHB_BUILD_COMMIT='"$(BUILD_COMMIT)"'

# db/schema.sql is compiled into the binary
$(B)/core/store/schema.o: core/store/schema.S db/schema.sql
	@mkdir -p $(@D)
	@echo "  AS      $<"
	$(Q)$(CC) -c -o $@ $<

# and so is each of db/migrations/*.sql (listed in core/store/migrations.S)
$(B)/core/store/migrations.o: core/store/migrations.S $(wildcard db/migrations/*.sql)
	@mkdir -p $(@D)
	@echo "  AS      $<"
	$(Q)$(CC) -c -o $@ $<

plugins/%.so: plugins/engines/%.c core/hbatest/plugin.h $(MODE_STAMP)
	@echo "  PLUGIN  $@"
	$(Q)$(CC) $(BASEFLAGS) -Icore $(CFLAGS) -fPIC -shared -o $@.tmp $< $(LDFLAGS) $(LIBS_$*) && mv -f $@.tmp $@
plugins/sim.so: plugins/engines/sim_model.h plugins/engines/sim_cards.h

plugins/%.so: plugins/probes/%.c core/hbatest/plugin.h core/hbatest/sysfs.h core/hbatest/tool.h \
              $(MODE_STAMP)
	@echo "  PLUGIN  $@"
	$(Q)$(CC) $(BASEFLAGS) -Icore $(CFLAGS) -fPIC -shared -o $@.tmp $< $(LDFLAGS) $(LIBS_$*) && mv -f $@.tmp $@
plugins/megaraid.so: plugins/probes/megaraid_json.h

build/skeleton/skeleton.so: plugins/engines/skeleton.c core/hbatest/plugin.h $(MODE_STAMP)
build/skeleton/skeleton_probe.so: plugins/probes/skeleton.c core/hbatest/plugin.h \
				  core/hbatest/sysfs.h $(MODE_STAMP)
$(SKELETONS):
	@mkdir -p $(@D)
	@echo "  PLUGIN  $@"
	$(Q)$(CC) $(BASEFLAGS) -Icore $(CFLAGS) -fPIC -shared -o $@ $< $(LDFLAGS)

$(B)/tests/%.t: tests/unit/%.c tests/tap.h $(CORE_OBJS)
	@mkdir -p $(@D)
	@echo "  TEST    $@"
	$(Q)$(CC) $(BASEFLAGS) $(CORE_CPPFLAGS) -Itests $(CFLAGS) -o $@ $< $(CORE_OBJS) $(CORE_LIBS)

build/tests/plugins/old_minor.so: tests/fixtures/plugins/checked.c

build/tests/plugins/%.so: tests/fixtures/plugins/%.c tests/fixtures/plugins/stub_ops.h \
			 core/hbatest/plugin.h $(MODE_STAMP)
	@mkdir -p $(@D)
	@echo "  PLUGIN  $@"
	$(Q)$(CC) $(BASEFLAGS) -Icore $(CFLAGS) -fPIC -shared -o $@ $<

# Under SANITIZE=1 every process the tests start writes its sanitizer reports
# to $(SAN_LOG)/ (leaks too: LSan at exit, third-party ones suppressed by
# tests/lsan.supp); a report fails `make check` even where a test ignores the
# exit status of the command that printed it. Stacks are unwound by frame
# pointers (fast): one through a library built without them (libpci, libudev)
# stops there; rerun that command with ASAN_OPTIONS=fast_unwind_on_malloc=0
# for the whole stack. Plugins stay mapped at exit under ASan (core/measure/loader.c).
SAN_LOG := $(CURDIR)/build/san/log
ifeq ($(SANITIZE),1)
SAN_COMMON := log_path=$(SAN_LOG)/report:print_stacktrace=1:exitcode=86
check: export ASAN_OPTIONS := $(SAN_COMMON):detect_leaks=1:strict_string_checks=1
check: export UBSAN_OPTIONS := $(SAN_COMMON):halt_on_error=1
check: export LSAN_OPTIONS := suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0
endif

# Test files run JOBS at a time: each makes its own temp folder and loop
# devices (losetup --find), its names and ports carry its pid, so none waits
# on another's. 4, on 2 CPUs too: many files wait (on real-clock steps, on
# events) more than they compute, and 12 of the slowest took 0.67 of their
# wall at -j2 with -j4 (docs/HACKING.md). tests/dev/prove-times.pl
# is prove (same options, same exit status) that then lists the test files by
# wall time, slowest first (HB_TIMES=N: how many; 0 for all).
JOBS ?= 4

check: all $(UNIT_TESTS) $(FIXTURE_PLUGINS)
	@rm -rf $(SAN_LOG)
	$(if $(SANFLAGS),@mkdir -p $(SAN_LOG))
	@perl tests/dev/prove-times.pl -j$(JOBS) -f $(UNIT_TESTS) $(wildcard tests/*.t); rc=$$?; \
	if [ -n "$$(ls -A $(SAN_LOG) 2>/dev/null)" ]; then \
		for f in $(SAN_LOG)/*; do echo "=== $$f"; cat "$$f"; done; \
		echo "make check: sanitizer reports in $(SAN_LOG)/ (above)"; exit 1; \
	fi; exit $$rc

lint:
	@sh tests/dev/lint.sh

bench: all
	bash tests/dev/bench.sh
	bash tests/dev/bench-ceiling.sh
	bash tests/dev/bench-sim.sh
	bash tests/dev/bench-year.sh

bench-year: all
	bash tests/dev/bench-year.sh

bench-report: all
	bash tests/bench-report.sh

# Not part of check or CI: builds a copy of the tree once per mutant.
# MUTANTS="3 5" runs only those (numbers from tests/dev/mutate.sh --list).
.PHONY: mutate
mutate:
	@bash tests/dev/mutate.sh $(MUTANTS)

# make fuzz: the targets of tests/fuzz/targets, each built with clang
# (libFuzzer, ASan, UBSan) from the core compiled apart into build/fuzz/ (no
# main.c; a library, so a target links only what it calls), then run one
# after the other for FUZZ_SECONDS (tests/fuzz/run.sh: new corpus entries in
# build/fuzz/corpus/NAME/, crashes in build/fuzz/crash/NAME/). make check
# runs a short smoke of each (tests/fuzz_smoke.t). Needs clang and
# libclang-rt-dev (tests/dev/install-deps.sh installs them).
FUZZ_CC      ?= clang
FUZZ_CFLAGS  ?= -O1 -g
FUZZ_SECONDS ?= 180
FUZZ_B       := build/fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_FLAGS   := -std=gnu11 -pthread -D_GNU_SOURCE $(WARNFLAGS) $(FUZZ_CFLAGS) $(FUZZ_SAN)
FUZZ_TARGETS := $(shell sed -n 's/^\([a-z_]*\)[ \t].*/\1/p' tests/fuzz/targets)
FUZZ_BINS    := $(addprefix $(FUZZ_B)/,$(FUZZ_TARGETS))
FUZZ_OBJS    := $(patsubst core/%.c,$(FUZZ_B)/core/%.o,$(CORE_SRCS)) \
                $(FUZZ_B)/core/store/schema.o $(FUZZ_B)/core/store/migrations.o

.PHONY: fuzz fuzz-build
fuzz-build: $(FUZZ_BINS)

fuzz: fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) sh tests/fuzz/run.sh $(FUZZ)

$(FUZZ_B)/core/%.o: core/%.c
	@mkdir -p $(@D)
	@echo "  FUZZCC  $<"
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link $(CORE_CPPFLAGS) -MMD -MP -c -o $@ $<

$(FUZZ_B)/core/store/schema.o: core/store/schema.S db/schema.sql
$(FUZZ_B)/core/store/migrations.o: core/store/migrations.S $(wildcard db/migrations/*.sql)
$(FUZZ_B)/core/store/schema.o $(FUZZ_B)/core/store/migrations.o:
	@mkdir -p $(@D)
	@echo "  AS      $<"
	$(Q)$(FUZZ_CC) -c -o $@ $<

$(FUZZ_B)/libcore.a: $(FUZZ_OBJS)
	@echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $^

$(FUZZ_BINS): $(FUZZ_B)/%: tests/fuzz/%.c tests/fuzz/fuzz.c tests/fuzz/fuzz.h $(FUZZ_B)/libcore.a
	@echo "  FUZZ    $@"
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer $(CORE_CPPFLAGS) -Itests/fuzz -o $@ \
		$< tests/fuzz/fuzz.c $(FUZZ_B)/libcore.a $(CORE_LIBS)

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(PLUGINDIR) $(DESTDIR)$(DATADIR)/scripts
	install -m 755 hbatest $(DESTDIR)$(BINDIR)/hbatest
	install -m 755 $(PLUGINS) $(DESTDIR)$(PLUGINDIR)/
	install -m 644 scripts/*.lua $(DESTDIR)$(DATADIR)/scripts/
	install -d $(DESTDIR)$(DATADIR)/reports
	cp -R reports/. $(DESTDIR)$(DATADIR)/reports/
	install -d $(DESTDIR)$(DATADIR)/queries
	install -m 644 db/queries/*.sql $(DESTDIR)$(DATADIR)/queries/
	install -d $(DESTDIR)$(DATADIR)/plans $(DESTDIR)$(DATADIR)/examples
	install -m 644 plans/*.lua $(DESTDIR)$(DATADIR)/plans/
	install -m 644 examples/*.lua $(DESTDIR)$(DATADIR)/examples/
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7
	install -m 644 docs/man/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 docs/man/*.7 $(DESTDIR)$(MANDIR)/man7/
	install -d $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	install -m 644 scripts/completion/hbatest.bash $(DESTDIR)$(BASHCOMPDIR)/hbatest
	install -m 644 scripts/completion/_hbatest $(DESTDIR)$(ZSHCOMPDIR)/_hbatest
	install -d $(DESTDIR)$(DOCDIR)/docs
	install -m 644 README.md $(DESTDIR)$(DOCDIR)/
	install -m 644 docs/*.md docs/*.png docs/*.svg $(DESTDIR)$(DOCDIR)/docs/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/hbatest $(DESTDIR)$(MANDIR)/man1/hbatest.1 \
	      $(DESTDIR)$(MANDIR)/man7/hbatest-plan.7 $(DESTDIR)$(BASHCOMPDIR)/hbatest \
	      $(DESTDIR)$(ZSHCOMPDIR)/_hbatest
	rm -rf $(DESTDIR)$(PLUGINDIR) $(DESTDIR)$(DATADIR) $(DESTDIR)$(DOCDIR)

clean:
	rm -rf $(B) hbatest $(PLUGINS) $(SKELETONS) hbatest.tmp plugins/*.so.tmp

-include $(wildcard $(B)/core/*/*.d $(B)/core/*/*/*.d)
-include $(wildcard $(FUZZ_B)/core/*/*.d $(FUZZ_B)/core/*/*/*.d)
