# The two commands of the README: `make run` and `make test`. Each installs what is missing
# (scripts/setup-deps.sh), configures and builds (Release, Ninja, ccache when present), then runs.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_ARGS ?=
RUN_ARGS ?= --out results/latest --force

.PHONY: all setup configure build run test typecheck tidy test-asan test-asan-core test-tsan package clean

all: build

setup:
	@scripts/setup-deps.sh

configure: setup
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# The desktop app where there is a display and it was built; otherwise the default experiment
# headless (seed with CUDA, cpu-seed without), printing the table and writing results/latest/.
run: build
	@if [ -x $(BUILD)/bin/synctax ] && [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
		$(BUILD)/bin/synctax; \
	else \
		$(BUILD)/bin/synctax-run run $(RUN_ARGS); \
	fi

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The probe package's type annotations, checked with Debian's mypy (its cache in the build folder).
typecheck: setup
	@cd probe && mypy --cache-dir $(abspath $(BUILD))/mypy-cache synctax_probe

# clang-tidy with the project's .clang-tidy over the C++ sources changed since TIDY_BASE (default: the
# last commit and what is not committed yet); any finding fails. `make tidy TIDY_BASE=main` for a branch.
TIDY_BASE ?= HEAD~1
# clang cannot read gcc's precompiled header, so clang-tidy reads a copy of the compile commands in
# which the precompiled header is a plain one (the same text, without the .gch beside it).
TIDY_DB = $(BUILD)/tidy
tidy: configure
	@mkdir -p $(TIDY_DB) && cp $(BUILD)/models/CMakeFiles/synctax_models.dir/cmake_pch.hxx $(TIDY_DB)/pch.hxx && \
		sed 's|-include [^ ]*/cmake_pch.hxx|-include $(abspath $(TIDY_DB))/pch.hxx|g' $(BUILD)/compile_commands.json \
		> $(TIDY_DB)/compile_commands.json
	@if ! git rev-parse -q --verify '$(TIDY_BASE)^{commit}' >/dev/null; then \
		echo "tidy: $(TIDY_BASE) is not in this clone: the LibTorch-free core's sources instead"; \
		git ls-files 'core/*.cpp' ':!core/engine/*' \
			| xargs -n 1 -P $(JOBS) clang-tidy -p $(TIDY_DB) --quiet --warnings-as-errors='*' 2>/dev/null; exit; fi; \
	files=$$( { git diff --name-only --diff-filter=d $(TIDY_BASE) -- 'app/*.cpp' 'core/*.cpp' 'models/*.cpp' 'ui/*.cpp' 'bench/*.cpp' 2>/dev/null; \
		git ls-files --others --exclude-standard -- 'app/*.cpp' 'core/*.cpp' 'models/*.cpp' 'ui/*.cpp' 'bench/*.cpp'; } | sort -u); \
	if [ -z "$$files" ]; then echo "tidy: no C++ source changed since $(TIDY_BASE)"; exit 0; fi; \
	echo "tidy: $$(echo $$files | wc -w) files changed since $(TIDY_BASE)"; \
	echo $$files | xargs -n 1 -P $(JOBS) clang-tidy -p $(TIDY_DB) --quiet --warnings-as-errors='*' 2>/dev/null

# The two Debian packages, synctax-runner (CLI, no Qt) and synctax (desktop app), in $(BUILD)/packages/.
package: build
	@cd $(BUILD) && cpack -G DEB

# Sanitizer builds of the CPU tests (LibTorch itself is not instrumented). ASan + UBSan on every
# test; TSan on the step ring and the runner, the parts that cross threads. -O1 and line tables
# (-g1): the sanitizers' reports keep their file:line stacks, and a file builds in about 55-65% of
# the time -O2 -g takes.
SAN_CMAKE = -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
	-DSYNCTAX_BUILD_GUI=OFF $(CMAKE_ARGS)
ASAN_FLAGS = -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
ASAN_ENV = ASAN_OPTIONS=detect_leaks=0:detect_container_overflow=0 UBSAN_OPTIONS=print_stacktrace=1
test-asan: setup
	@cmake -S . -B build-asan $(SAN_CMAKE) $(ASAN_FLAGS) >/dev/null
	@cmake --build build-asan -j $(JOBS)
	@cd build-asan && $(ASAN_ENV) \
		ctest --output-on-failure -j $(JOBS) -LE gpu

# What CI runs besides `make test`: every test of the core's LibTorch-free rooms (config, the step
# stream, the queue model, analysis, every file format; CTest label `core`) under ASan + UBSan; the
# full test-asan takes too long for every push.
test-asan-core: setup
	@cmake -S . -B build-asan $(SAN_CMAKE) $(ASAN_FLAGS) >/dev/null
	@cmake --build build-asan -j $(JOBS) --target synctax_core_tests
	@cd build-asan && $(ASAN_ENV) ctest --output-on-failure --no-tests=error -j $(JOBS) -L core

test-tsan: setup
	@cmake -S . -B build-tsan $(SAN_CMAKE) -DCMAKE_CXX_FLAGS="-fsanitize=thread -fno-omit-frame-pointer" >/dev/null
	@cmake --build build-tsan -j $(JOBS) --target test_steps test_engine synctax-run
	@cd build-tsan && TSAN_OPTIONS=halt_on_error=1 ctest --output-on-failure -j $(JOBS) -R 'StepRing|ExperimentRunner|cli.sigint'

clean:
	rm -rf $(BUILD) build-asan build-tsan build-fuzz
