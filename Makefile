# schedbench - every entry point is a target here; `make help` lists them.
#
# Build products go to $(BUILD) (default build/) and bin/sb. Policies,
# workloads and experiments are picked up from their folders by wildcard;
# the registry of policies and experiments is generated from the sources
# (scripts/gen-registry), so adding a baseline is adding one file.

BUILD     ?= build
QUICK     ?=
JOBS      ?= $(shell nproc 2>/dev/null || echo 2)
DATA_DIR  ?= data
DATA_MIRROR ?= ../shared/data
MPI       ?=
SEED      ?= 1

ifeq ($(MPI),1)
CC        := mpicc
SB_MPI_DEF := -DSB_MPI=1
BIN       ?= bin/sb-mpi
BUILD     := build-mpi
else
BIN       ?= bin/sb
endif

PKG_HDF5_CFLAGS := $(shell pkg-config --cflags hdf5-serial 2>/dev/null)
PKG_HDF5_LIBS   := $(shell pkg-config --libs hdf5-serial 2>/dev/null)
ifeq ($(PKG_HDF5_LIBS),)
PKG_HDF5_CFLAGS := -I/usr/include/hdf5/serial
PKG_HDF5_LIBS   := -L/usr/lib/x86_64-linux-gnu/hdf5/serial -lhdf5
endif
# HDF5 from its static archive when there is one (HDF5_STATIC=0: the shared
# library): Debian's shared libhdf5 loads 45 libraries (curl, krb5, gnutls...),
# 24 ms of CPU at every start of sb, and the figures of make reproduce start
# sb hundreds of times (sb --help: 33 ms -> 10 ms of CPU)
HDF5_STATIC ?= 1
HDF5_A := $(if $(filter 1,$(HDF5_STATIC)),$(firstword $(wildcard \
	$(addsuffix /libhdf5.a,$(patsubst -L%,%,$(filter -L%,$(PKG_HDF5_LIBS)))))))
ifneq ($(HDF5_A),)
PKG_HDF5_LIBS := $(HDF5_A) -lsz -lz -ldl
endif

WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wno-unused-parameter -Wno-format-truncation
# Functions on 64-byte and loops on 32-byte boundaries: without them the
# speed of a hot loop moved with unrelated code. PipeDream's planner
# (solve_row, the same instructions) took 3.0 s of CPU in QUICK
# pipeline_models at one address and 3.9 s at another, 0x50 bytes on, after
# a new source file shifted the binary; with the alignment 3.0 s, and the
# sum of every QUICK experiment's CPU is within 2 s of the older binary's.
# Code layout only: the results are the same bits.
OPT      ?= -O2 -g -falign-functions=64 -falign-loops=32
CFLAGS   ?=
CFLAGS   += -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L $(OPT) $(WARN) \
            $(WERROR) $(SAN) $(PKG_HDF5_CFLAGS) $(SB_MPI_DEF) \
            -I. -Icore -I$(BUILD)
LDLIBS   := -lglpk $(PKG_HDF5_LIBS) -lgsl -lgslcblas -lmetis -lm
# GLPK, GSL and their dependencies from Debian's static archives too, when
# every one is installed (STATIC_LIBS=0: shared): the dynamic loader then
# maps libc, libm and METIS (which has no archive) only, and a start of
# sb export costs 8.9 ms of CPU instead of 10.2 (perf stat, 200 runs on a
# quiet machine); make reproduce starts sb hundreds of times. Used only when
# STATIC_LIBS is 1, all 11 archives are found and HDF5 is static too.
STATIC_LIBS ?= 1
STATIC_DIR := $(dir $(realpath $(shell $(CC) -print-file-name=libglpk.a)))
STATIC_A := $(if $(STATIC_DIR),$(foreach l,glpk gsl gslcblas colamd amd suitesparseconfig ltdl gmp sz aec z,\
	$(wildcard $(STATIC_DIR)lib$(l).a)))
ifeq ($(STATIC_LIBS)$(words $(STATIC_A))$(if $(HDF5_A),h),111h)
LDLIBS   := $(HDF5_A) $(STATIC_A) -ldl -lmetis -lm
endif
LDFLAGS  += $(SAN)

# the engine (core/*.c) and, one folder per family, everything else
CORE_SRC   := $(filter-out core/main.c,$(sort $(wildcard core/*.c core/*/*.c)))
POLICY_SRC := $(sort $(wildcard algorithms/*/*.c baselines/*/*.c))
LOAD_SRC   := $(sort $(wildcard workloads/*/*.c))
EXP_SRC    := $(sort $(wildcard experiments/*/*.c))
LIB_SRC    := $(CORE_SRC) $(POLICY_SRC) $(LOAD_SRC) $(EXP_SRC)
LIB_OBJ    := $(LIB_SRC:%.c=$(BUILD)/%.o)
TEST_SRC   := $(sort $(wildcard tests/test_*.c tests/*/test_*.c))
TEST_OBJ   := $(TEST_SRC:%.c=$(BUILD)/%.o)

.PHONY: FORCE validate-rf all help deps need-deps test test-run smoke smoke-run reproduce paper bench asan \
        data clean install new-baseline new-family experiments figures verify mpi-check \
        fuzz-build fuzz-bins fuzz-long

# Plain `make` installs nothing: it says in one line what is missing.
all:
	@sh scripts/deps --check
	@$(MAKE) --no-print-directory $(BIN)

help:
	@echo "schedbench targets:"
	@echo "  make reproduce [QUICK=1]  every experiment, figure, claim verdict and the report"
	@echo "  make test                 build and run the whole test suite"
	@echo "  make smoke                build, fast tests, one quick experiment and one plot"
	@echo "  make deps                 install the Debian packages schedbench needs"
	@echo "  make data                 fetch real data sets into DATA_DIR (sha256-checked)"
	@echo "  make bench                speed: events/s, policy and solver times -> results/bench.h5"
	@echo "  make asan                 the test suite under AddressSanitizer/UBSan"
	@echo "  make fuzz-long            every libFuzzer harness for >= 1,000,000 inputs (FUZZ_ARGS=...)"
	@echo "  make paper                build paper/report.pdf from results and figures"
	@echo "  make validate-rf          A-SRPT's random forest against scikit-learn (if installed)"
	@echo "  make new-baseline FAMILY=dag NAME=foo   start a baseline from the template"
	@echo "  make new-family NAME=foo  start a problem family (every <kind>/foo/ folder)"
	@echo "  make MPI=1                build bin/sb-mpi for mpirun"
	@echo "  make install [PREFIX=/usr/local] [DESTDIR=]   sb and its man page"
	@echo "  make clean                remove build products (not results/)"

deps:
	@sh scripts/deps

# Entry points a newcomer runs first install what is missing, then build.
need-deps:
	@sh scripts/deps --if-missing

# regenerated on every build (replaced only when it changes), so that a
# removed policy file leaves no stale entry behind
$(BUILD)/registry.def: FORCE scripts/gen-registry | $(BUILD)
	@scripts/gen-registry $(LIB_SRC) > $@.$$$$.tmp || { rm -f $@.$$$$.tmp; exit 1; }; \
	  cmp -s $@.$$$$.tmp $@ || mv $@.$$$$.tmp $@; rm -f $@.$$$$.tmp

$(BUILD):
	@mkdir -p $(BUILD)

$(BUILD)/core/registry.o: $(BUILD)/registry.def

# The git revision the binary was built from, for provenance attributes.
# Untracked files that git does not ignore count as a change (a new baseline
# is an untracked file until it is committed).
$(BUILD)/version.h: FORCE | $(BUILD)
	@sha=$$(git rev-parse HEAD 2>/dev/null || echo unknown); \
	 dirty=$$(test -z "$$(git status --porcelain 2>/dev/null)" && echo 0 || echo 1); \
	 printf '#define SB_GIT_SHA "%s"\n#define SB_GIT_DIRTY %s\n' "$$sha" "$$dirty" > $@.$$$$.tmp; \
	 cmp -s $@.$$$$.tmp $@ || mv $@.$$$$.tmp $@; rm -f $@.$$$$.tmp

$(BUILD)/core/cli.o: $(BUILD)/version.h

FORCE:

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

# built under a private name and renamed, so that a second make running at
# the same time (make all build/sbtest) never links against a half archive
$(BUILD)/libsb.a: $(LIB_OBJ)
	@rm -f $@.$$$$.tmp
	ar rcs $@.$$$$.tmp $^ && mv -f $@.$$$$.tmp $@

$(BIN): $(BUILD)/core/main.o $(BUILD)/libsb.a
	@mkdir -p $(dir $(BIN))
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/sbtest: $(TEST_OBJ) $(BUILD)/libsb.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lcriterion

BENCH_SRC := $(sort $(wildcard bench/*.c))
BENCH_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(BENCH_SRC))

# the parts of make bench, one per family, registered like the policies
$(BUILD)/bench.def: FORCE scripts/gen-registry | $(BUILD)
	@scripts/gen-registry $(BENCH_SRC) > $@.$$$$.tmp || { rm -f $@.$$$$.tmp; exit 1; }; \
	  cmp -s $@.$$$$.tmp $@ || mv $@.$$$$.tmp $@; rm -f $@.$$$$.tmp

$(BUILD)/bench/main.o: $(BUILD)/bench.def

$(BUILD)/sbbench: $(BENCH_OBJ) $(BUILD)/libsb.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Test helpers built from tests/ (the PCG reference is C++ on purpose: it is
# Debian's libpcg-cpp-dev, the published reference implementation).
$(BUILD)/pcg_ref: tests/pcg_ref.cpp
	@mkdir -p $(BUILD)
	$(CXX) -O2 -std=c++11 -o $@ $<

test: need-deps
	@$(MAKE) --no-print-directory test-run

test-run: $(BIN) $(BUILD)/sbtest $(BUILD)/pcg_ref
	@SB_PCG_REF=$(BUILD)/pcg_ref SB_BIN=$(BIN) $(BUILD)/sbtest --jobs $(JOBS) $(TESTFLAGS)
	@SB_BIN=$(BIN) sh tests/cli.sh
	@SB_BIN=$(BIN) BUILD=$(BUILD) sh tests/layout.sh
	@sh tests/paper.sh
	@$(MAKE) --no-print-directory fuzz-build >/dev/null
	@sh scripts/fuzz --short

smoke: need-deps
	@$(MAKE) --no-print-directory smoke-run

smoke-run: $(BIN) $(BUILD)/sbtest $(BUILD)/pcg_ref
	@SB_PCG_REF=$(BUILD)/pcg_ref SB_BIN=$(BIN) $(BUILD)/sbtest --jobs $(JOBS) --filter '!(slow)/*'
	$(BIN) run dag_density --quick --out results/smoke_dag_density.h5
	@mkdir -p plots/out
	SB=$(BIN) RESULTS=results/smoke_dag_density.h5 OUT=plots/out/smoke_dag_density gnuplot plots/dag/dag_density.gp
	@echo "smoke: ok (plots/out/smoke_dag_density.png)"

ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

asan: need-deps
	@$(MAKE) --no-print-directory BUILD=build-asan BIN=build-asan/sb SAN="$(ASAN_FLAGS)" OPT="-O1 -g" test-run

# Coverage-guided fuzzing (libFuzzer, clang 14): the library built with
# coverage instrumentation and ASan/UBSan in its own directory, one binary
# per input format from tests/fuzz_*.c and tests/<family>/fuzz_*.c, each
# linked with the shared helpers tests/fuzzkit.c and tests/<family>/fuzzcheck.c.
# scripts/fuzz runs them: `make test` a short run (corpus replay and about
# 10,000 new inputs each), `make fuzz-long` at least 1,000,000 each.
FUZZ_BUILD := build-fuzz
FUZZ_SAN   := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
              -fno-omit-frame-pointer -Wno-unknown-warning-option
FUZZ_SRC   := $(sort $(wildcard tests/fuzz_*.c tests/*/fuzz_*.c))
FUZZ_BIN   := $(FUZZ_SRC:tests/%.c=$(BUILD)/fuzzers/%)
FUZZ_KIT   := $(patsubst %.c,$(BUILD)/%.o,tests/fuzzkit.c $(sort $(wildcard tests/*/fuzzcheck.c)))

fuzz-build:
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=clang \
	  SAN="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" OPT="-O1 -g" fuzz-bins

# (run through fuzz-build, which sets BUILD, CC and the sanitizers)
fuzz-bins: $(FUZZ_BIN)

$(BUILD)/libfuzzkit.a: $(FUZZ_KIT)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/fuzzers/%: $(BUILD)/tests/%.o $(BUILD)/libfuzzkit.a $(BUILD)/libsb.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

.SECONDARY: $(FUZZ_SRC:%.c=$(BUILD)/%.o)

fuzz-long: need-deps
	@$(MAKE) --no-print-directory fuzz-build
	@DATA_DIR=$(DATA_DIR) sh scripts/fuzz --long $(FUZZ_ARGS)

reproduce: need-deps
	@$(MAKE) --no-print-directory $(BIN)
	@SB=$(BIN) sh scripts/reproduce $(if $(QUICK),--quick) --jobs $(JOBS) --seed $(SEED)

paper: need-deps
	@sh scripts/paper

bench: need-deps
	@$(MAKE) --no-print-directory $(BIN)
	@SB=$(BIN) BUILD=$(BUILD) sh scripts/bench

data:
	@DATA_DIR=$(DATA_DIR) DATA_MIRROR=$(DATA_MIRROR) sh scripts/fetch-data

# A-SRPT's random forest (algorithms/asrpt/rf.c) against scikit-learn.
# scikit-learn is not a dependency: without python3-sklearn the script
# prints "skipped" and succeeds.
PYTHON3 ?= /usr/bin/python3

$(BUILD)/rf_tool: $(BUILD)/tests/cluster/rf_tool.o $(BUILD)/libsb.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

validate-rf: $(BUILD)/rf_tool
	@$(PYTHON3) tests/cluster/rf_sklearn.py $(BUILD)/rf_tool

new-baseline:
	@sh scripts/new-baseline "$(FAMILY)" "$(NAME)"

new-family:
	@sh scripts/new-family "$(NAME)"

mpi-check:
	@sh scripts/mpi-check

# make install [PREFIX=/usr/local] [DESTDIR=]: sb and its manual page, which
# is generated from the same table as `sb help`.
PREFIX ?= /usr/local
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/sb
	$(BIN) help --man > $(BUILD)/sb.1
	install -m 644 $(BUILD)/sb.1 $(DESTDIR)$(PREFIX)/share/man/man1/sb.1

clean:
	rm -rf $(BUILD) build-asan $(FUZZ_BUILD) bin

-include $(LIB_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(FUZZ_KIT:.o=.d) $(FUZZ_SRC:%.c=$(BUILD)/%.d) $(BENCH_OBJ:.o=.d) $(BUILD)/core/main.d $(BUILD)/tests/cluster/rf_tool.d
