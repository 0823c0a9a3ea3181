# mcastlat - hand-written GNU make.  See README.md.
#
#   make                  build mcastlat and libmcastlat.a
#   make check            unit tests (Check) and CLI golden tests
#   make deps             install the Debian packages the build needs
#   make DEVELOPER=1      add -Werror
#   make SANITIZE=address,undefined   build with sanitizers
#   make BUILD=dir        put objects in dir (default: build)

VERSION := 0.1.0
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
LIBDIR ?= $(PREFIX)/lib
INCDIR ?= $(PREFIX)/include
BUILD ?= build

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

ALL_CFLAGS := $(WARN) -D_POSIX_C_SOURCE=200809L -DML_VERSION='"$(VERSION)"' \
	-Iinclude -Isrc -I$(BUILD)/gen $(GSL_CFLAGS) $(SANFLAGS) $(CFLAGS)
ALL_LDFLAGS := $(SANFLAGS) $(LDFLAGS)
LIBS := $(GSL_LIBS) -lpthread -lm

LIB_SRC := $(sort $(wildcard src/models/*.c) $(filter-out src/cli/main.c,$(wildcard src/cli/*.c)))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ := $(BUILD)/src/cli/main.o
TEST_SRC := $(sort $(wildcard tests/check_*.c)) tests/runner.c
# The command table and the test-suite registry are generated from the
# files present, so adding a model is one cmd_<name>.c and one
# check_<name>.c: no list to edit by hand.
CMD_NAMES := $(sort $(patsubst src/cli/cmd_%.c,%,$(wildcard src/cli/cmd_*.c)))
SUITE_NAMES := $(sort $(patsubst tests/check_%.c,%,$(wildcard tests/check_*.c)))
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)
LIB := $(BUILD)/libmcastlat.a
MANPAGES := $(wildcard man/*.1)
DEBS := libgsl-dev check pkg-config

.PHONY: all check unit cli bench install uninstall clean deps fuzz FORCE

all: mcastlat libmcastlat.a

mcastlat: $(MAIN_OBJ) $(LIB)
	$(CC) $(ALL_LDFLAGS) $(STATIC) -o $@ $(MAIN_OBJ) $(LIB) $(LIBS)

libmcastlat.a: $(LIB)
	cp $(LIB) $@

$(LIB): $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJ)

# Rewritten only when the list changes, so nothing rebuilds needlessly.
$(BUILD)/gen/gen_commands.h: FORCE
	@mkdir -p $(dir $@)
	@printf 'X(%s)\n' $(CMD_NAMES) > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(BUILD)/gen/gen_suites.h: FORCE
	@mkdir -p $(dir $@)
	@printf 'X(%s)\n' $(SUITE_NAMES) > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(BUILD)/src/cli/commands.o: $(BUILD)/gen/gen_commands.h
$(BUILD)/tests/runner.o: $(BUILD)/gen/gen_suites.h

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -Wno-missing-prototypes -MMD -MP -c -o $@ $<

$(BUILD)/runner: $(TEST_OBJ) $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $(TEST_OBJ) $(LIB) $(CHECK_LIBS) $(LIBS)

check: unit cli

unit: $(BUILD)/runner
	CK_DEFAULT_TIMEOUT=$${CK_DEFAULT_TIMEOUT:-300} $(BUILD)/runner

cli: mcastlat
	tests/cli/run.sh ./mcastlat

bench: all
	scripts/bench.sh

deps:
	@missing=; for p in $(DEBS); do \
		dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y $$missing; \
	fi

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR)/mcastlat
	install -m 755 mcastlat $(DESTDIR)$(BINDIR)/mcastlat
	install -m 644 libmcastlat.a $(DESTDIR)$(LIBDIR)/libmcastlat.a
	install -m 644 include/mcastlat/*.h $(DESTDIR)$(INCDIR)/mcastlat/
	install -m 644 $(MANPAGES) $(DESTDIR)$(MANDIR)/man1/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/mcastlat $(DESTDIR)$(LIBDIR)/libmcastlat.a
	rm -rf $(DESTDIR)$(INCDIR)/mcastlat
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MANPAGES)))

clean:
	rm -rf $(BUILD) build-* mcastlat libmcastlat.a

-include $(LIB_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(TEST_OBJ:.o=.d)
