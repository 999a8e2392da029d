# Entry points. `make run` and `make test` work on a fresh Debian machine: both bootstrap first.
BUILD_DIR ?= build
JOBS ?= 2
SCENARIO ?=
FUZZ_SECONDS ?= 60

.PHONY: all bootstrap configure build run test bench params-table configure-sanitize sanitize \
        test-sanitize test-sanitize-unit fuzz clean

all: build

bootstrap:
	@scripts/bootstrap

configure: bootstrap
	@if [ ! -f $(BUILD_DIR)/build.ninja ]; then \
	  cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null; fi

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

run: build
	$(BUILD_DIR)/tb/ssdsim $(SCENARIO)

test: build
	ctest --test-dir $(BUILD_DIR) -j $(JOBS) --output-on-failure

# README's parameter table, from the scenario registry (after adding or changing a key).
params-table: build
	@scripts/update-params-table $(BUILD_DIR)

bench: build
	@scripts/run-benches $(BUILD_DIR)

# The same tests under AddressSanitizer and UndefinedBehaviorSanitizer, in a build of its own.
configure-sanitize: bootstrap
	@if [ ! -f $(BUILD_DIR)-asan/build.ninja ]; then \
	  cmake -S . -B $(BUILD_DIR)-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSSDVP_SANITIZE=ON >/dev/null; fi

sanitize: configure-sanitize
	@cmake --build $(BUILD_DIR)-asan -j $(JOBS)

test-sanitize: sanitize
	ctest --test-dir $(BUILD_DIR)-asan -j $(JOBS) --output-on-failure

# The part of them CI runs: the unit tests that need no SystemC (the instruction-set model, the
# scenario, trace and ELF parsers, the NAND model, the firmware's modules built for the host),
# each executable with all its cases in one process.
SANITIZE_UNIT_TESTS = cpu/cpu_tests cpu/cpu_tests_interpreter scenario/scenario_tests workload/workload_tests \
  elf/elf_image_test nand/nand_tests ftl/ftl_tests map/map_tests rqrmi/rqrmi_tests \
  ftl_store/tp_store_tests ftl_runtime/ftl_runtime_tests waves/wave_writer_test \
  profile/profile_report_test

test-sanitize-unit: configure-sanitize
	@cmake --build $(BUILD_DIR)-asan -j $(JOBS) --target $(notdir $(SANITIZE_UNIT_TESTS))
	@for test in $(SANITIZE_UNIT_TESTS); do \
	  echo "test-sanitize-unit: $$test"; \
	  $(BUILD_DIR)-asan/tb/tests/$$test --gtest_brief=1 || exit 1; \
	done

# The libFuzzer harnesses of fuzz/, built with clang in a build of their own, each run for
# FUZZ_SECONDS; prints the executions of each and fails on what one finds.
fuzz: bootstrap
	@if [ ! -f $(BUILD_DIR)-fuzz/build.ninja ]; then \
	  CC=clang CXX=clang++ cmake -S . -B $(BUILD_DIR)-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	    -DSSDVP_FUZZ=ON >/dev/null; fi
	@cmake --build $(BUILD_DIR)-fuzz -j $(JOBS)
	@scripts/run-fuzzers $(BUILD_DIR)-fuzz $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD_DIR) $(BUILD_DIR)-asan $(BUILD_DIR)-fuzz
