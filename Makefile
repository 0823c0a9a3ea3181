# mcastlat - hand-written GNU make.  See README.md.
#
#   make                  build mcastlat, libmcastlat.a and libmcastlat.so
#   make check            unit tests (Check), CLI golden tests, library
#                         and install checks
#   make install          PREFIX (/usr/local), DESTDIR, BINDIR, LIBDIR,
#                         INCDIR, MANDIR, DATADIR; make uninstall
#   make deps             install the Debian packages the build needs
#   make DEVELOPER=1      add -Werror
#   make SANITIZE=address,undefined   build with sanitizers, in BUILD
#                         (default build-sanitize)
#   make BUILD=dir        put objects in dir (default: build)
#
# Only the default build (BUILD=build, no SANITIZE) writes ./mcastlat and
# ./libmcastlat.a; every variant (another BUILD, the sanitizers, clang,
# fuzzing, the dynamic binary for valgrind) builds its binary and
# archive in a directory of its own, and `make check` and `make install`
# there use those, so no variant ever replaces what `make install` takes.
#   make fuzz             libFuzzer (clang) on each target of tests/fuzz/
#                         for FUZZ_SECONDS (default 60) in FUZZ_BUILD
#   make valgrind         CLI tests and hard inputs under valgrind
#   make figures          every scripts/fig*.sh into FIGDIR (figures): the
#                         torus, hypercube, multicast, k-binomial and
#                         cluster papers
#   make man-stamp        write VERSION and DATE into every man page's .TH
#   make completion       the bash completion, build/completion/mcastlat
#   make check-clang      build everything with clang -Werror, run the tests
#   make check-mpi        the schedules against the real MPI libraries
#                         (tests/mpi/run.sh: Open MPI's own messages; a
#                         library that is not installed is skipped unless
#                         MCASTLAT_REQUIRE_MPI names it)
#   make probe            mcastlat-probe, the MPI program that measures a
#                         machine for `fit collective` (needs mpicc);
#                         make install-probe installs it

# The version is written once, in include/mcastlat.h; the soname
# carries the major number (libmcastlat.so.0).
version_part = $(shell sed -n 's/^.define MCASTLAT_VERSION_$(1)[[:space:]]*\([0-9][0-9]*\)$$/\1/p' include/mcastlat.h)
VERSION_MAJOR := $(call version_part,MAJOR)
VERSION_MINOR := $(call version_part,MINOR)
VERSION_PATCH := $(call version_part,PATCH)
VERSION := $(VERSION_MAJOR).$(VERSION_MINOR).$(VERSION_PATCH)
SOVERSION := $(VERSION_MAJOR)
# The release date: the .TH line of every man page (make man-stamp).
DATE := 2026-11-25
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
LIBDIR ?= $(PREFIX)/lib
INCDIR ?= $(PREFIX)/include
DATADIR ?= $(PREFIX)/share
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
COMPLETIONDIR ?= $(DATADIR)/bash-completion/completions
ifdef SANITIZE
BUILD ?= build-sanitize
ifeq ($(BUILD),build)
$(error SANITIZE needs a BUILD of its own: the default build's objects would be mixed with sanitized ones)
endif
endif
BUILD ?= build
# BIN and ALIB: what `all` builds, the tests run and `install` installs.
ifeq ($(BUILD),build)
BIN := mcastlat
ALIB := libmcastlat.a
else
BIN := $(BUILD)/mcastlat
ALIB := $(BUILD)/libmcastlat.a
endif
RUN_BIN := $(if $(findstring /,$(BIN)),$(BIN),./$(BIN))

CC ?= cc
CFLAGS ?= -O2 -g
PKG_CONFIG ?= pkg-config

WARN := -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wformat=2 -Wvla -fno-common
ifdef DEVELOPER
WARN += -Werror
endif
ifdef SANITIZE
SANFLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
STATIC ?=
else
# A static binary starts in well under a millisecond (no dynamic loading
# of GSL) and can be copied to any x86-64 Linux node.  STATIC= to opt out.
STATIC ?= -static
endif

GSL_CFLAGS := $(shell $(PKG_CONFIG) --cflags gsl 2>/dev/null)
GSL_LIBS := $(shell $(PKG_CONFIG) --libs gsl 2>/dev/null || echo -lgsl -lgslcblas -lm)
CHECK_CFLAGS := $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS := $(shell $(PKG_CONFIG) --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt -lm)

ALL_CFLAGS := $(WARN) -D_POSIX_C_SOURCE=200809L \
	-Iinclude -Isrc -I$(BUILD)/gen $(GSL_CFLAGS) $(CPPFLAGS) $(SANFLAGS) \
	$(CFLAGS)
ALL_LDFLAGS := $(SANFLAGS) $(LDFLAGS)
LIBS := $(GSL_LIBS) -lpthread -lm

# The library is the models and the simulator; the CLI's objects go into
# an archive of their own that the binary, the unit tests and the fuzz
# replays link before the library.
LIB_SRC := $(sort $(wildcard src/models/*.c) $(wildcard src/sim/*.c) \
	$(wildcard src/collective/*.c) \
	$(wildcard src/fit/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_SRC := $(sort $(wildcard src/cli/*/*.c))
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
CLI_LIB := $(BUILD)/libmcastlat-cli.a
MAIN_OBJ := $(BUILD)/src/cli/main.o
TEST_SRC := $(sort $(wildcard tests/check_*.c)) tests/runner.c
# The command table and the test-suite registry are generated from the
# files present, so adding a model is one src/cli/commands/cmd_<name>.c
# and one check_<name>.c: no list to edit by hand.
CMD_NAMES := $(sort $(patsubst src/cli/commands/cmd_%.c,%,$(wildcard src/cli/commands/cmd_*.c)))
SUITE_NAMES := $(sort $(patsubst tests/check_%.c,%,$(wildcard tests/check_*.c)))
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)
LIB := $(BUILD)/libmcastlat.a
# The shared library: position-independent objects of their own, only
# the functions declared ML_API exported (-fvisibility=hidden), every
# symbol resolved at link time (GSL and libm in its NEEDED list).  Built
# without the sanitizers, whose runtimes a shared library cannot name.
PIC_OBJ := $(LIB_SRC:%.c=$(BUILD)/pic/%.o)
PIC_CFLAGS := $(filter-out $(SANFLAGS),$(ALL_CFLAGS)) -fPIC -fvisibility=hidden
SONAME := libmcastlat.so.$(SOVERSION)
SHLIB := $(BUILD)/libmcastlat.so.$(VERSION)
SHLIB_LDFLAGS := -shared -Wl,-soname,$(SONAME) -Wl,--no-undefined \
	-Wl,-z,defs -Wl,--as-needed
HEADERS := $(wildcard include/mcastlat/*.h)
MANPAGES := $(wildcard man/*.1)
# The measurement files of mcastlat-fit(1)'s worked example (synthetic,
# from scripts/gen-fit-examples.sh), installed beside the program.
FITDATA := $(sort $(wildcard examples/*.out))
EXAMPLEDIR ?= $(DATADIR)/mcastlat/examples
DEBS := libgsl-dev check pkg-config man-db groff-base

# $(call apt_install,PACKAGES): apt-get install what is missing, nothing
# when every package is present (sudo when not root).
apt_install = @missing=; for p in $(1); do \
		dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y $$missing; \
	fi

.PHONY: all check unit cli check-mpich bench figures install uninstall clean deps fuzz FORCE \
	fuzz-replay fuzz-merge fuzz-deps hard valgrind check-lib \
	check-symbols check-headers check-install completion check-clang \
	check-variants check-mpi probe install-probe \
	man-stamp

all: $(BIN) $(ALIB) $(SHLIB) completion

ifeq ($(BUILD),build)
mcastlat: $(MAIN_OBJ) $(CLI_LIB) $(LIB)
	$(CC) $(ALL_LDFLAGS) $(STATIC) -o $@ $(MAIN_OBJ) $(CLI_LIB) $(LIB) $(LIBS)

libmcastlat.a: $(LIB)
	cp $(LIB) $@
else
# In a variant, `make mcastlat` builds the variant's own binary.
.PHONY: mcastlat libmcastlat.a
mcastlat: $(BIN)
libmcastlat.a: $(ALIB)
endif

# The bash completion (zsh: through bashcompinit) is written by the
# binary from its own command and option tables, so it cannot drift from
# them.  A cross build sets RUN_MCASTLAT to a native mcastlat of the same
# source.
RUN_MCASTLAT ?= $(RUN_BIN)
completion: $(BUILD)/completion/mcastlat

$(BUILD)/completion/mcastlat: $(BIN)
	@mkdir -p $(dir $@)
	$(RUN_MCASTLAT) completion bash > $@.tmp && mv $@.tmp $@

$(LIB): $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJ)

$(CLI_LIB): $(CLI_OBJ)
	rm -f $@
	$(AR) rcs $@ $(CLI_OBJ)

# The real file, and the soname and development links beside it, so that
# LD_LIBRARY_PATH=$(BUILD) finds it.
$(SHLIB): $(PIC_OBJ)
	$(CC) $(SHLIB_LDFLAGS) $(LDFLAGS) -o $@ $(PIC_OBJ) $(GSL_LIBS) -lm
	ln -sf $(notdir $@) $(BUILD)/$(SONAME)
	ln -sf $(SONAME) $(BUILD)/libmcastlat.so

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(PIC_CFLAGS) -MMD -MP -c -o $@ $<

# pkg-config file for the install's prefix and directories; rewritten
# only when they change.
$(BUILD)/mcastlat.pc: mcastlat.pc.in FORCE
	@mkdir -p $(dir $@)
	@sed -e 's|@PREFIX@|$(PREFIX)|' \
		-e 's|@LIBDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))|' \
		-e 's|@INCDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(INCDIR))|' \
		-e 's|@VERSION@|$(VERSION)|' mcastlat.pc.in > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

# Rewritten only when the list changes, so nothing rebuilds needlessly.
%/gen/gen_commands.h: FORCE
	@mkdir -p $(dir $@)
	@printf 'X(%s)\n' $(CMD_NAMES) > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

%/gen/gen_suites.h: FORCE
	@mkdir -p $(dir $@)
	@printf 'X(%s)\n' $(SUITE_NAMES) > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(BUILD)/src/cli/engine/commands.o: $(BUILD)/gen/gen_commands.h
$(BUILD)/tests/runner.o: $(BUILD)/gen/gen_suites.h

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -Wno-missing-prototypes -MMD -MP -c -o $@ $<

$(BUILD)/runner: $(TEST_OBJ) $(CLI_LIB) $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $(TEST_OBJ) $(CLI_LIB) $(LIB) $(CHECK_LIBS) $(LIBS)

check: unit cli hard fuzz-replay check-lib check-variants

# The CI's variant builds (.ci/run, `make -n -B`: nothing is built) must
# not write the default build's ./mcastlat or ./libmcastlat.a.
# And, in the default build, what `make install` installs carries no
# sanitizer (.ci/run runs this last, after its variants).
check-variants:
	MAKE='$(MAKE)' tests/lib/variants.sh
ifeq ($(BUILD),build)
	MAKE='$(MAKE)' tests/lib/nosanitizer.sh $(BUILD)/nosan-check
endif

# The library as a packager and a user see it (tests/lib/): its symbols,
# its headers alone, in C99 and in C++, and an install into a temporary
# DESTDIR that builds examples/predict.c with pkg-config, statically and
# dynamically, and runs it (and examples/predict.py) against the CLI.
check-lib: check-symbols check-headers check-install

check-symbols: $(LIB) $(SHLIB)
	tests/lib/symbols.sh $(LIB) $(SHLIB) $(SONAME) include/mcastlat.h \
		$(HEADERS)

check-headers:
	CC='$(CC)' CXX='$(CXX)' tests/lib/headers.sh include/mcastlat.h $(HEADERS)

check-install: all
	CC='$(CC)' STATIC='$(STATIC)' VERSION=$(VERSION) SOVERSION=$(SOVERSION) \
		tests/lib/install.sh $(BUILD)/install-check

unit: $(BUILD)/runner
	CK_DEFAULT_TIMEOUT=$${CK_DEFAULT_TIMEOUT:-300} $(BUILD)/runner

cli: $(BIN) $(BUILD)/completion/mcastlat
	tests/cli/run.sh $(RUN_BIN)
	tests/cli/manex.sh $(RUN_BIN)
	tests/cli/fitex.sh $(RUN_BIN)
	tests/cli/fit.sh $(RUN_BIN)
	tests/cli/manlint.sh $(VERSION) $(DATE)
	tests/cli/shards.sh $(RUN_BIN)
	tests/cli/usability.sh $(RUN_BIN)
	tests/cli/completion.sh $(RUN_BIN) $(BUILD)/completion/mcastlat
	tests/cli/scripts.sh $(RUN_BIN)
	tests/cli/realdata.sh $(RUN_BIN)
	tests/cli/statuses.sh $(RUN_BIN)
	tests/cli/rules.sh $(RUN_BIN)
	tests/cli/layers.sh src
	tests/cli/layers.sh --self-test

# The real MPI libraries as the reference (SPEC 10.6): tests/mpi/run.sh
# runs every tests/mpi/check-*.sh; each compiles its MPI programs with the
# library's own wrapper into $(BUILD)/mpi/NAME and exits 77 (skipped)
# when the library is absent; MCASTLAT_REQUIRE_MPI=ompi,mpich (or
# all) makes those skips failures, as CI does.
check-mpi: $(BIN)
	MAKE='$(MAKE)' PROBE=$(PROBE_BIN) MPICC=$(MPICC) \
		tests/mpi/run.sh $(RUN_BIN) $(BUILD)/mpi

# mcastlat-probe (src/probe/, SPEC 10.6): an MPI program, so built only
# on request and with the MPI library's wrapper (MPICC); it links the
# library for collective's placement and the CLI's value lists.
MPICC ?= mpicc
PROBE_SRC := $(sort $(wildcard src/probe/*.c))
PROBE_OBJ := $(PROBE_SRC:%.c=$(BUILD)/%.o)
ifeq ($(BUILD),build)
PROBE_BIN := mcastlat-probe
else
PROBE_BIN := $(BUILD)/mcastlat-probe
endif
probe: $(PROBE_BIN)

# Not part of `make install`, which needs no MPI (its man page is).
install-probe: $(PROBE_BIN)
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 $(PROBE_BIN) $(DESTDIR)$(BINDIR)/mcastlat-probe

$(PROBE_BIN): $(PROBE_OBJ) $(CLI_LIB) $(LIB)
	$(MPICC) $(ALL_LDFLAGS) -o $@ $(PROBE_OBJ) $(CLI_LIB) $(LIB) $(LIBS)

$(BUILD)/src/probe/%.o: src/probe/%.c
	@command -v $(MPICC) >/dev/null 2>&1 || { echo "make probe: no \
	'$(MPICC)' (Debian: apt-get install openmpi-bin libopenmpi-dev)"; \
	exit 1; }
	@mkdir -p $(dir $@)
	$(MPICC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# Hard inputs: every command fed every class of bad value (exit 2, one
# stderr line, no stdout), malformed and BOM/CRLF batch files.
hard: $(BIN)
	tests/cli/hard.sh $(RUN_BIN)

# The CLI golden tests and the hard inputs with the binary under valgrind
# (build without SANITIZE): any memory error or definite/indirect leak
# fails (exit status 99).  One option of each kind per command is fed the
# bad values (HARD_ALL=0), which takes minutes rather than hours.
VALGRIND ?= valgrind --quiet --error-exitcode=99 --leak-check=full \
	--errors-for-leak-kinds=definite,indirect
valgrind: $(BUILD)/mcastlat-dynamic
	MCASTLAT_WRAP='$(VALGRIND)' tests/cli/run.sh $(BUILD)/mcastlat-dynamic
	MCASTLAT_WRAP='$(VALGRIND)' tests/cli/manex.sh $(BUILD)/mcastlat-dynamic
	MCASTLAT_WRAP='$(VALGRIND)' HARD_ALL=0 tests/cli/hard.sh \
		$(BUILD)/mcastlat-dynamic

# ------------------------------------------------------------------
# Fuzzing (tests/fuzz/).  Each fuzz_<t>.c defines LLVMFuzzerTestOneInput.
# `make check` replays the saved inputs (corpus/<t>, regress/<t>) through
# replay.c with the normal compiler and flags (SANITIZE too); `make fuzz`
# builds the targets with clang's libFuzzer, ASan and UBSan in FUZZ_BUILD
# and runs each for FUZZ_SECONDS, growing FUZZ_BUILD/corpus/<t> and
# writing crashing inputs to tests/fuzz/crashes/; `make -j2 fuzz` runs two
# at once; `make fuzz-merge` adds what the runs found to corpus/<t>.
FUZZ_TARGETS ?= vlist args batch fitdata
FUZZ_SECONDS ?= 60
FUZZ_BUILD ?= build-fuzz
FUZZ_CC ?= clang
FUZZ_OPTS ?= -timeout=30 -rss_limit_mb=2048 -print_final_stats=1
FUZZ_DEBS := clang libclang-rt-dev
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
FUZZ_CFLAGS := $(WARN) -D_POSIX_C_SOURCE=200809L \
	-Iinclude -Isrc -I$(FUZZ_BUILD)/gen $(GSL_CFLAGS) -O1 -g $(FUZZ_SAN)
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(FUZZ_BUILD)/%.o) $(CLI_SRC:%.c=$(FUZZ_BUILD)/%.o)
REPLAY := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/replay_%)
REPLAY_OBJ := $(FUZZ_TARGETS:%=$(BUILD)/tests/fuzz/fuzz_%.o) \
	$(BUILD)/tests/fuzz/replay.o

$(BUILD)/fuzz/replay_%: $(BUILD)/tests/fuzz/fuzz_%.o \
		$(BUILD)/tests/fuzz/replay.o $(CLI_LIB) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

# Kept between runs, although only reached through pattern rules.
.SECONDARY: $(REPLAY_OBJ) $(FUZZ_LIB_OBJ) \
	$(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)

fuzz-replay: $(REPLAY)
	@for t in $(FUZZ_TARGETS); do \
		dirs=; for d in tests/fuzz/corpus/$$t tests/fuzz/regress/$$t; \
		do [ -d $$d ] && dirs="$$dirs $$d"; done; \
		$(BUILD)/fuzz/replay_$$t $$dirs && continue; \
		echo "fuzz-replay: $$t failed; the last inputs run:"; \
		$(BUILD)/fuzz/replay_$$t -v $$dirs 2>&1 | tail -n 20; exit 1; \
	done

$(FUZZ_BUILD)/src/cli/engine/commands.o: $(FUZZ_BUILD)/gen/gen_commands.h

$(FUZZ_BUILD)/src/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h \
		$(FUZZ_LIB_OBJ)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB_OBJ) \
		$(LIBS)

fuzz: $(FUZZ_TARGETS:%=fuzz-run-%)

fuzz-run-%: $(FUZZ_BUILD)/fuzz_%
	@mkdir -p $(FUZZ_BUILD)/corpus/$* tests/fuzz/crashes
	$(FUZZ_BUILD)/fuzz_$* -max_total_time=$(FUZZ_SECONDS) $(FUZZ_OPTS) \
		-dict=tests/fuzz/fuzz.dict -artifact_prefix=tests/fuzz/crashes/$*- \
		$(FUZZ_BUILD)/corpus/$* tests/fuzz/corpus/$* \
		$(wildcard tests/fuzz/regress/$*)

# Only inputs that reach new edges are added (-use_counters=0: hit
# counts do not count), which keeps the corpus to a few hundred files.
fuzz-merge: $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)
	@for t in $(FUZZ_TARGETS); do \
		$(FUZZ_BUILD)/fuzz_$$t -merge=1 -use_counters=0 -timeout=30 \
			tests/fuzz/corpus/$$t $(FUZZ_BUILD)/corpus/$$t || exit 1; \
		echo "$$t: $$(ls tests/fuzz/corpus/$$t | wc -l) files"; \
	done

fuzz-deps:
	$(call apt_install,$(FUZZ_DEBS))

# A second compiler as a quality gate: clang 14 warns where gcc does not
# (and the reverse), so the library, the binary, the test runner and the
# fuzz replayers are built with CC=$(CLANG) and -Werror in CLANG_BUILD,
# then the unit tests and the CLI golden tests run on what it built.
# gcc stays the default compiler.
CLANG ?= clang
CLANG_BUILD ?= build-clang
# MPICH's messages against the real MPICH 4.0.2 (tests/mpi/check-mpich.sh;
# exit 77, skipped, without it).
check-mpich: $(BIN)
	tests/mpi/check-mpich.sh $(RUN_BIN)

check-clang:
	$(MAKE) BUILD=$(CLANG_BUILD) CC=$(CLANG) DEVELOPER=1 \
		$(CLANG_BUILD)/mcastlat $(CLANG_BUILD)/runner \
		$(CLANG_BUILD)/libmcastlat.so.$(VERSION) \
		$(FUZZ_TARGETS:%=$(CLANG_BUILD)/fuzz/replay_%)
	CK_DEFAULT_TIMEOUT=$${CK_DEFAULT_TIMEOUT:-300} $(CLANG_BUILD)/runner
	tests/cli/run.sh $(CLANG_BUILD)/mcastlat

# The binary in BUILD, for a build that must not replace ./mcastlat.
ifneq ($(BUILD),build)
$(BUILD)/mcastlat: $(MAIN_OBJ) $(CLI_LIB) $(LIB)
	$(CC) $(ALL_LDFLAGS) $(STATIC) -o $@ $(MAIN_OBJ) $(CLI_LIB) $(LIB) $(LIBS)
endif

# The binary linked dynamically, for valgrind: a static glibc's start-up
# code is what valgrind reports otherwise.
$(BUILD)/mcastlat-dynamic: $(MAIN_OBJ) $(CLI_LIB) $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $(MAIN_OBJ) $(CLI_LIB) $(LIB) $(LIBS)

bench: all
	scripts/bench.sh

# Every figure script (scripts/fig*.sh), PNGs and their CSV into FIGDIR.
# Needs gnuplot; the simulated figures take minutes (see each script).
FIGDIR ?= figures
figures: $(BIN)
	@set -e; for s in scripts/fig*.sh; do \
		echo "== $$s"; FIGDIR=$(FIGDIR) MCASTLAT=$(RUN_BIN) sh $$s; \
	done

deps:
	$(call apt_install,$(DEBS))

# The .TH line of every man page from VERSION and DATE, title in capitals
# with \- for a hyphen; make check (tests/cli/manlint.sh) fails while a
# page disagrees.
man-stamp:
	@for m in $(MANPAGES); do \
		t=$$(basename $$m .1 | tr a-z A-Z | sed 's/-/\\\\-/g'); \
		sed -i "s/^\.TH .*/.TH $$t 1 $(DATE) \"mcastlat $(VERSION)\" \"User Commands\"/" $$m; \
	done

# GNU and Debian layout; nothing is stripped or compressed (the
# packager's dh_strip and dh_compress do that).  Shared library 644, as
# Debian policy 8.1 asks.
install: all $(BUILD)/mcastlat.pc
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR)/mcastlat \
		$(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(COMPLETIONDIR) \
		$(DESTDIR)$(EXAMPLEDIR)
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/mcastlat
	install -m 644 $(ALIB) $(DESTDIR)$(LIBDIR)/libmcastlat.a
	install -m 644 $(SHLIB) $(DESTDIR)$(LIBDIR)/$(notdir $(SHLIB))
	ln -sf $(notdir $(SHLIB)) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libmcastlat.so
	install -m 644 include/mcastlat.h $(DESTDIR)$(INCDIR)/mcastlat.h
	install -m 644 $(HEADERS) $(DESTDIR)$(INCDIR)/mcastlat/
	install -m 644 $(BUILD)/mcastlat.pc $(DESTDIR)$(PKGCONFIGDIR)/mcastlat.pc
	install -m 644 $(MANPAGES) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(BUILD)/completion/mcastlat \
		$(DESTDIR)$(COMPLETIONDIR)/mcastlat
	install -m 644 $(FITDATA) $(DESTDIR)$(EXAMPLEDIR)/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/mcastlat $(DESTDIR)$(LIBDIR)/libmcastlat.a \
		$(DESTDIR)$(BINDIR)/mcastlat-probe \
		$(DESTDIR)$(LIBDIR)/libmcastlat.so \
		$(DESTDIR)$(LIBDIR)/$(SONAME) \
		$(DESTDIR)$(LIBDIR)/$(notdir $(SHLIB)) \
		$(DESTDIR)$(INCDIR)/mcastlat.h \
		$(addprefix $(DESTDIR)$(INCDIR)/mcastlat/,$(notdir $(HEADERS))) \
		$(DESTDIR)$(PKGCONFIGDIR)/mcastlat.pc \
		$(DESTDIR)$(COMPLETIONDIR)/mcastlat \
		$(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MANPAGES))) \
		$(addprefix $(DESTDIR)$(EXAMPLEDIR)/,$(notdir $(FITDATA)))
	rmdir $(DESTDIR)$(INCDIR)/mcastlat 2>/dev/null || :
	rmdir $(DESTDIR)$(EXAMPLEDIR) $(DESTDIR)$(DATADIR)/mcastlat \
		2>/dev/null || :

clean:
	rm -rf $(BUILD) build-* mcastlat libmcastlat.a mcastlat-probe

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(PIC_OBJ:.o=.d) \
	$(MAIN_OBJ:.o=.d) $(TEST_OBJ:.o=.d) \
	$(REPLAY_OBJ:.o=.d) $(FUZZ_LIB_OBJ:.o=.d) $(PROBE_OBJ:.o=.d)
