# The two commands of the README: `make run` and `make test`. Each installs what is missing
# (scripts/setup-deps.sh), configures and builds (Release, Ninja, ccache when present), then runs.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_ARGS ?=
RUN_ARGS ?= --out results/latest

.PHONY: all setup configure build run test clean

all: build

setup:
	@scripts/setup-deps.sh

configure: setup
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# The desktop app where there is a display and it was built; otherwise the default experiment
# headless (seed with CUDA, cpu-quick without), printing the table and writing results/latest/.
run: build
	@if [ -x $(BUILD)/bin/synctax ] && [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
		$(BUILD)/bin/synctax; \
	else \
		$(BUILD)/bin/synctax-run run $(RUN_ARGS); \
	fi

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD)
