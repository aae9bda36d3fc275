# fuzz.mk — the libFuzzer build of the harnesses (GNU make; `make fuzz`
# runs it from the build directory with the configured flags):
#   make -f tests/fuzz/fuzz.mk srcdir=. abs_srcdir=... abs_builddir=... pkgdatadir=... \
#        includedir=... CUDA_HOME=... FUZZ_CPPFLAGS=... FUZZ_LIBS=... \
#        UB_SOURCES='...' CLI_SOURCES='...' [FUZZ_SECONDS=60] [FUZZ=LIST] run
# Every source of libub.a and the harnesses are compiled again with clang,
# coverage instrumentation (-fsanitize=fuzzer-no-link), ASan and UBSan into
# $(O)/; each harness is linked with libFuzzer and run FUZZ_SECONDS seconds
# on its seed corpus (tests/fuzz/corpus/NAME/, read-only) and the inputs it
# found before ($(O)/corpus/NAME/).  A crash is saved as
# $(O)/crashes/NAME/crash-* (add it to tests/fuzz/regress/NAME/ with its
# fix), and the run fails.
O = fuzz-build
FUZZ_CC = clang
FUZZ_SECONDS = 60
FUZZ = npy fpcore suite ptx cache capture approx_code cli partial insns why triton sbatch
SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS = -g -O1 -std=gnu11 -Wall -Wextra -ffp-contract=off -frounding-math $(SAN) \
	-fsanitize=fuzzer-no-link -DUB_CAPTURE_MAX='(UINT32_C(1) << 16)'

DATA_DEFS = -DSRCDIR='"$(abs_srcdir)"' -DBUILDDIR='"$(abs_builddir)"' -DPKGDATADIR='"$(pkgdatadir)"' \
	-DINCLUDEDIR='"$(includedir)"' -DCUDA_HOME='"$(CUDA_HOME)"'

lib_objs = $(patsubst %.c,$(O)/%.o,$(filter %.c,$(UB_SOURCES)))
cli_objs = $(patsubst %.c,$(O)/%.o,$(filter %.c,$(CLI_SOURCES))) $(O)/tests/fuzz/fuzz_util.o

build: $(FUZZ:%=$(O)/fuzz_%)

# V=1 shows the commands
Q = $(if $(filter 1,$(V)),,@)

$(O)/%.o: $(srcdir)/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  FUZZCC   $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(DATA_DEFS) -iquote $(srcdir)/tests/fuzz $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

$(O)/libub.a: $(lib_objs) $(cli_objs)
	$(Q)rm -f $@ && ar cr $@ $^ && ranlib $@

$(O)/fuzz_%: $(O)/tests/fuzz/fuzz_%.o $(O)/libub.a
	@$(if $(Q),echo "  FUZZLD   $@")
	$(Q)$(FUZZ_CC) $(SAN) -fsanitize=fuzzer -o $@ $< $(O)/libub.a $(FUZZ_LIBS)

run: build
	$(Q)FUZZ_SECONDS='$(FUZZ_SECONDS)' $(SHELL) $(srcdir)/tests/fuzz/run.sh $(O) $(srcdir)/tests/fuzz $(FUZZ)

.PHONY: build run
.SECONDARY:
-include $(lib_objs:.o=.d) $(cli_objs:.o=.d) $(FUZZ:%=$(O)/tests/fuzz/fuzz_%.d)
