# Entry points. `make run` and `make test` work on a fresh Debian machine: both bootstrap first.
BUILD_DIR ?= build
JOBS ?= 2
SCENARIO ?=

.PHONY: all bootstrap configure build run test bench params-table sanitize test-sanitize clean

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
sanitize: bootstrap
	@if [ ! -f $(BUILD_DIR)-asan/build.ninja ]; then \
	  cmake -S . -B $(BUILD_DIR)-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSSDVP_SANITIZE=ON >/dev/null; fi
	@cmake --build $(BUILD_DIR)-asan -j $(JOBS)

test-sanitize: sanitize
	ctest --test-dir $(BUILD_DIR)-asan -j $(JOBS) --output-on-failure

clean:
	rm -rf $(BUILD_DIR) $(BUILD_DIR)-asan
