# Chime — build, test, demo, benchmark.
#   make test    install missing system packages, build once, run every test
#   make demo    the daemon on a fresh demo store: alarms firing within seconds (desktop or stdout)
#   make bench   release build, Chime vs libical on the same workload, same run

SWIFT     ?= swift
# System packages the build and the tests need: SQLite for the store; libnotify for desktop notifications;
# libical is the independent engine the differential test and the benchmark compare against; tzdata is where
# zones come from; libgeoclue-2 for positions from GeoClue2. For the tests: a private D-Bus (dbus-daemon,
# dbus-bin), a real notification server (dunst) on a headless X server (xvfb), gdbus (libglib2.0-bin) and
# busctl (systemd, used by dunstctl); a real GeoClue 2.6 with its demo agent (geoclue-2.0), run with its
# config bind-mounted by unshare (util-linux) and fed positions by a fake GPS in python3.
APT_PACKAGES := pkg-config libical-dev libsqlite3-dev tzdata libnotify-dev libnotify-bin libgeoclue-2-dev \
	dbus-daemon dbus-bin libglib2.0-bin systemd dunst xvfb geoclue-2.0 util-linux python3
SUDO      := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Tests run on an optimised build (with -enable-testing for @testable imports): the property and
# differential suites walk whole search horizons thousands of times, which takes minutes in a
# debug build and seconds here. Preconditions and overflow traps stay on in -O builds.
TEST_FLAGS := -c release -Xswiftc -enable-testing --scratch-path .build-test

.PHONY: deps pydeps build test demo tour bench fuzz clean

deps:
	@missing=""; \
	for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q --no-install-recommends $$missing; \
	fi

# Test-only Python peers for the iCalendar export test (PyPI): an independent parser and expander.
PY_PACKAGES := icalendar==7.3.0 recurring-ical-events==3.8.2

pydeps:
	@python3 -c "import icalendar, recurring_ical_events" 2>/dev/null || python3 -m pip install --quiet $(PY_PACKAGES)

build: deps pydeps
	$(SWIFT) build $(TEST_FLAGS) --build-tests

# Every test runs inside a private desktop-services sandbox (Tests/harness): a session bus with dunst under
# Xvfb, and a private system bus with GeoClue 2.6 fed by a fake GPS, so the libnotify and GeoClue adapters
# and the daemon are tested against real servers.
# Suites that run on their own, one after the other: the two that drive the one shared dunst (Swift Testing
# runs suites in parallel, and one suite's close-all or menu choice would disturb the other's notification),
# the real-clock timer suite, whose wake-up bound is meaningless while process tests keep the
# 2-core cooperative thread pool busy, and the two GeoClue suites, which move the one fake GPS (the adapter's
# also restarts geoclue).
SERVER_SUITES := LibnotifySinkTests DesktopDaemonTests SystemWallClockTests GeoClueProviderTests GeoClueDaemonTests
test: build
	Tests/harness/with-services.sh sh -c '$(SWIFT) test $(TEST_FLAGS) --skip-build $(foreach s,$(SERVER_SUITES),--skip $(s)) \
		$(foreach s,$(SERVER_SUITES),&& $(SWIFT) test $(TEST_FLAGS) --skip-build --filter $(s))'

demo: deps
	@$(SWIFT) build --product chime >/dev/null
	@./Examples/demo.sh .build/debug/chime

# The store tour (agenda, reminders, completion, recurrence) on a pinned clock.
tour: deps
	@$(SWIFT) build --product chime >/dev/null
	@./Examples/tour.sh .build/debug/chime

bench: deps
	$(SWIFT) build -c release --product chime-bench
	.build/release/chime-bench $(BENCH_ARGS)
	$(SWIFT) build -c release --product chime-geofence-bench
	.build/release/chime-geofence-bench $(GEOFENCE_BENCH_ARGS)
	@dpkg -s calcurse >/dev/null 2>&1 || DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q calcurse \
		|| echo "calcurse not installed: chime-store-bench runs without its peer"
	$(SWIFT) build -c release --product chime
	$(SWIFT) build -c release --product chime-store-bench
	.build/release/chime-store-bench --chime .build/release/chime $(STORE_BENCH_ARGS)

# libFuzzer on the .ics and RRULE parsers for FUZZ_SECONDS each (default 60); new crashes are kept in
# Tests/Fuzz/Crashes/, which make test replays.
fuzz:
	Tests/Fuzz/fuzz.sh

clean:
	rm -rf .build .build-test
