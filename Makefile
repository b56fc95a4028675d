# Chime — build, test, demo, benchmark.
#   make test        install missing system packages, check the docs, build once, run every test, then
#                    check make install (test-install)
#   make check-docs  every link and cited file in the documentation exists (Tests/docs/check-docs.sh)
#   make format      formats the Swift sources with swift-format (.swift-format); make check-format checks
#   make demo        the daemon on a fresh demo store: alarms firing within seconds (desktop or stdout)
#   make tour        the store tour (agenda, reminders, completion, recurrence) on a pinned clock
#   make bench       release builds of the four benchmarks, each against its peer in the same run: recurrence
#                    (chime-bench, vs libical), geofences (chime-geofence-bench), chime expand --batch as a
#                    whole process (Tests/bench/expand-batch-bench.py, vs a libical program), rules in other
#                    calendars (Tests/bench/rscale-bench.py, vs the same libical program), store, daemon and
#                    iCalendar (chime-store-bench, vs calcurse when it can be installed); reports in
#                    bench-results/, docs/benchmarks.md has the results
#   make fuzz        libFuzzer on the RRULE and .ics parsers (FUZZ_SECONDS each); crashes kept for make test
#   make install     release build that runs without the Swift toolchain, installed under PREFIX (default
#                    ~/.local) with its systemd user unit, desktop entry, icon, man page and completions
#   make uninstall   removes what make install put there
#   make clean       removes the build folders (.build, .build-test, .build-install)

SWIFT     ?= swift
# System packages the build and the tests need: SQLite for the store; libnotify for desktop notifications;
# libical is the independent engine the differential test and the benchmark compare against; tzdata is where
# zones come from; libgeoclue-2 for positions from GeoClue2; libcurl for CalDAV (HTTP and TLS); libsecret
# keeps CalDAV passwords in the desktop's Secret Service, as Chime never stores one in plain text.
# For the tests: a private D-Bus (dbus-daemon,
# dbus-bin), a real notification server (dunst) on a headless X server (xvfb), gdbus (libglib2.0-bin) and
# busctl (systemd, used by dunstctl); a real GeoClue 2.6 with its demo agent (geoclue-2.0), run with its
# config bind-mounted by unshare (util-linux) and fed positions by a fake GPS in python3; Radicale, the CalDAV
# server the sync tests run against; gnome-keyring (a real Secret Service, started on a private bus by
# SecretServiceTests) and libsecret-tools (secret-tool, which checks what Chime stored there).
# BUILD_PACKAGES are what `make install` needs to build chime (the Swift toolchain aside); their runtime
# libraries (libnotify4, libgeoclue-2-0, libsqlite3-0, libglib2.0-0, libcurl4, libxml2, libsecret-1-0) are what the
# installed binary loads; libcurl4, libxml2 and libsecret-1-0 are opened (dlopen) on the first CalDAV request, answer
# and password call rather than linked, so that commands and the daemon without an account do not load them and
# the TLS, Kerberos, LDAP, ICU and libgcrypt libraries they need (so the build needs no libsecret or libxml2 headers);
# libcanberra0 plays alarm sounds where the notification server plays none: not linked but loaded
# (dlopen) on the first sound, so the build needs no headers for it, only the runtime library for the sounds.
# python3 writes the man page. man-db and groff-base: the install test renders the man page. gettext's msgfmt
# compiles the translation catalogs (po/*.po, read at run time by glibc's own gettext); locales holds the
# locale sources the language tests build with localedef into a private folder (LOCPATH), never the machine's.
BUILD_PACKAGES := pkg-config libsqlite3-dev tzdata libnotify-dev libgeoclue-2-dev libcurl4-openssl-dev libcanberra0 libsecret-1-0 libxml2 python3 \
	gettext
APT_PACKAGES := $(BUILD_PACKAGES) libical-dev libnotify-bin \
	dbus-daemon dbus-bin libglib2.0-bin systemd dunst xvfb geoclue-2.0 util-linux man-db groff-base radicale \
	gnome-keyring libsecret-tools locales
SUDO      := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Tests run on an optimised build (with -enable-testing for @testable imports): the property and
# differential suites walk whole search horizons thousands of times, which takes minutes in a
# debug build and seconds here. Preconditions and overflow traps stay on in -O builds.
# Every release build (tests, install, benchmarks) reaches a concrete generic type's metadata (a
# dictionary of String keys, an option of Int) through its accessor, which the compiler hands the
# conformances it already knows, instead of by its mangled name: decoding a name at run time proves each
# requirement in it (the key is Hashable) by scanning every protocol conformance of the statically linked
# binary (about 7,400), once per type and protocol. The flag removes 12-17 % of the instructions of a short
# command (`chime version`, `agenda --days 1`, `edit`); the binary grows by 0.3 %.
SWIFT_CODEGEN := -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
TEST_FLAGS := -c release $(SWIFT_CODEGEN) -Xswiftc -enable-testing --scratch-path .build-test

.PHONY: check-format format check deps build-deps pydeps build catalogs test test-install check-docs demo tour bench fuzz clean release install uninstall

deps: PACKAGES = $(APT_PACKAGES)
build-deps: PACKAGES = $(BUILD_PACKAGES)
deps build-deps:
	@missing=""; \
	for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q --no-install-recommends $$missing; \
	fi

# Test-only Python peers (PyPI): an independent iCalendar parser and expander for the export test, and the
# `caldav` client as a third client on the sync tests' server; dbus-next, the D-Bus service's Python client;
# xandikos, the second CalDAV server the sync is tested against (stricter than Radicale; Debian's is too old).
PY_PACKAGES := icalendar==7.3.0 recurring-ical-events==3.8.2 caldav==3.6.0 dbus-next==0.2.3 xandikos==0.4.10

pydeps:
	@python3 -c "import icalendar, recurring_ical_events, caldav, dbus_next, xandikos" 2>/dev/null || python3 -m pip install --quiet $(PY_PACKAGES)

build: deps pydeps
	$(SWIFT) build $(TEST_FLAGS) --build-tests
	$(MAKE) --no-print-directory catalogs LOCALE_OUT=.build-test/release/locale

# The translation catalogs: each po/LANG.po checked (msgfmt --check: formats, plural forms, header) and
# complete (no untranslated or fuzzy entry), compiled to LOCALE_OUT/LANG/LC_MESSAGES/chime.mo. The
# binary finds them beside itself (the build folder) or under ../share/locale (installed).
CATALOGS := $(basename $(notdir $(wildcard po/*.po)))
LOCALE_OUT ?= .build/debug/locale
catalogs:
	@for lang in $(CATALOGS); do \
		mkdir -p "$(LOCALE_OUT)/$$lang/LC_MESSAGES"; \
		stats=$$(msgfmt --check --statistics -o "$(LOCALE_OUT)/$$lang/LC_MESSAGES/chime.mo" po/$$lang.po 2>&1) || { echo "$$stats"; exit 1; }; \
		case "$$stats" in *untranslated*|*fuzzy*) echo "po/$$lang.po is not complete: $$stats"; exit 1;; esac; \
		echo "catalog $$lang: $$stats"; \
	done

# Every test runs inside a private desktop-services sandbox (Tests/harness): a session bus with dunst under
# Xvfb, and a private system bus with GeoClue 2.6 fed by a fake GPS, so the libnotify and GeoClue adapters
# and the daemon are tested against real servers.
# Suites that run on their own, one after the other. First, on an idle machine, the real-clock timer suite and
# the cross-process change latency suite (TIMED_SUITES), whose time bounds are meaningless while other work
# keeps the 2 cores busy. Then the release build that test-install checks starts in the background at the
# lowest priority (nice 19, in its own scratch folder, so it shares nothing with the test build; it still
# slows the parallel suites, 164 -> 258 s when measured, and gets most of its time while the server suites
# wait for a daemon or a snooze; its output is dropped, as make install builds again and shows any error),
# while the rest run: every other suite in parallel, then (SERVER_SUITES) the three that drive the one shared
# dunst (Swift Testing runs suites in parallel, and one suite's close-all or menu choice would disturb the
# other's notification), the two GeoClue suites, which move the one fake GPS (the adapter's also restarts
# geoclue), and the bus-peer suite, whose in-process D-Bus service answers on Swift's shared thread pool,
# which the parallel run's blocking tests can hold for longer than a D-Bus call waits (25 s). test-install's
# `make install` then finds its build done. A failed test run stops the build with its compilers (setsid makes
# it a process group of its own, which kill ends whole), and so does an interrupted one (Ctrl-C, CI's TERM).
TIMED_SUITES := SystemWallClockTests ChangeLatencyTests
SERVER_SUITES := LibnotifySinkTests DesktopDaemonTests AlarmCommandDaemonTests BusServiceTests GeoClueProviderTests GeoClueDaemonTests BusPeerWatchTests
test: check-docs check-format build
	Tests/harness/with-services.sh sh -c 'true $(foreach s,$(TIMED_SUITES),&& $(SWIFT) test $(TEST_FLAGS) --skip-build --filter $(s))'
	setsid nice -n 19 $(SWIFT) build $(RELEASE_FLAGS) --product chime </dev/null >/dev/null 2>&1 & release=$$!; \
	trap 'kill -- -'$$release' 2>/dev/null' INT TERM HUP; \
	Tests/harness/with-services.sh sh -c '$(SWIFT) test $(TEST_FLAGS) --skip-build $(foreach s,$(TIMED_SUITES) $(SERVER_SUITES),--skip $(s)) \
		$(foreach s,$(SERVER_SUITES),&& $(SWIFT) test $(TEST_FLAGS) --skip-build --filter $(s))'; status=$$?; \
	[ $$status = 0 ] || kill -- -$$release 2>/dev/null; wait $$release; exit $$status
	$(MAKE) --no-print-directory test-install

# The fast loop while changing code: a debug build (.build), then the tests of the modules that need no
# system service (the pure core, iCalendar, output shapes, the scheduler in virtual time, the store on a
# real SQLite file). No sandbox, no install; `make test` runs everything (also the real-clock timer suite,
# SystemWallClockTests, whose bounds need an otherwise idle machine).
CHECK_MODULES := ChimeCoreTests|ChimeICSTests|ChimeFormatTests|ChimeLanguageTests|ChimeSchedulerTests|ChimeStoreTests
check: build-deps check-format
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory catalogs
	$(SWIFT) test --skip-build --parallel --filter '$(CHECK_MODULES)' --skip SystemWallClockTests

# swift-format ships with the toolchain; .swift-format is the house style (4 spaces, 160 columns, the
# formatter's layout only: its naming and structure rules are off). `make format` rewrites in place.
FORMAT_PATHS := Package.swift Sources Tests
check-format:
	$(SWIFT) format lint --strict --recursive --configuration .swift-format $(FORMAT_PATHS)
format:
	$(SWIFT) format format --in-place --recursive --configuration .swift-format $(FORMAT_PATHS)

# Links, cited files, machine paths and tracker references in the documentation; config defaults quoted in
# docs/configuration.md against Config/config.toml. Needs only sh tools and git.
check-docs:
	Tests/docs/check-docs.sh

# `make install DESTDIR=… PREFIX=/usr/local` into a temporary folder, then checks the installed files: the
# list, the unit (systemd-analyze verify), the binary with the Swift toolchain hidden, completions, man page.
# It builds the release binary (.build-install), the one build `make test` adds.
test-install: build-deps
	Tests/install/test-install.sh

# demo and tour need only what the build needs (build-deps), not the test services that deps adds; the
# build's progress and errors stay on the terminal.
demo: build-deps
	@$(SWIFT) build --product chime
	@./Examples/demo.sh .build/debug/chime

# The store tour (agenda, reminders, completion, recurrence) on a pinned clock.
tour: build-deps
	@$(SWIFT) build --product chime
	@./Examples/tour.sh .build/debug/chime

# Each benchmark's report is also written to $(BENCH_RESULTS)/ (not in git), one file per benchmark.
BENCH_RESULTS ?= bench-results
bench: deps
	@mkdir -p $(BENCH_RESULTS)
	$(SWIFT) build -c release $(SWIFT_CODEGEN) --product chime-bench
	.build/release/chime-bench $(BENCH_ARGS) > $(BENCH_RESULTS)/engine.txt; cat $(BENCH_RESULTS)/engine.txt
	$(SWIFT) build -c release $(SWIFT_CODEGEN) --product chime-geofence-bench
	.build/release/chime-geofence-bench $(GEOFENCE_BENCH_ARGS) > $(BENCH_RESULTS)/geofence.txt; cat $(BENCH_RESULTS)/geofence.txt
	@dpkg -s calcurse >/dev/null 2>&1 || DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q calcurse \
		|| echo "calcurse not installed: chime-store-bench runs without its peer"
	$(SWIFT) build -c release $(SWIFT_CODEGEN) --product chime
	Tests/bench/expand-batch-bench.py --chime .build/release/chime --chime-bench .build/release/chime-bench \
		--results $(BENCH_RESULTS)/expand-batch.txt
	Tests/bench/rscale-bench.py --chime .build/release/chime > $(BENCH_RESULTS)/rscale.txt; cat $(BENCH_RESULTS)/rscale.txt
	$(SWIFT) build -c release $(SWIFT_CODEGEN) --product chime-store-bench
	.build/release/chime-store-bench --chime .build/release/chime --history 90000 $(STORE_BENCH_ARGS) > $(BENCH_RESULTS)/store.txt; \
		cat $(BENCH_RESULTS)/store.txt

# libFuzzer on the .ics and RRULE parsers for FUZZ_SECONDS each (default 60); new crashes are kept in
# Tests/Fuzz/Crashes/, which make test replays.
fuzz:
	Tests/Fuzz/fuzz.sh

# Installation. PREFIX defaults to ~/.local (no root needed); DESTDIR stages the files for packagers.
# The binary links the Swift runtime and Foundation statically (--static-swift-stdlib), so it runs on
# machines without the Swift toolchain; it loads only Debian's libraries (libnotify, libgeoclue, SQLite,
# GLib, glibc, libstdc++).
PREFIX      ?= $(HOME)/.local
DESTDIR     ?=
BINDIR      ?= $(PREFIX)/bin
DATADIR     ?= $(PREFIX)/share
MANDIR      ?= $(DATADIR)/man
DOCDIR      ?= $(DATADIR)/doc/chime
# systemd --user reads ~/.local/share/systemd/user for a user's own units, and /usr/local/lib/systemd/user,
# /usr/lib/systemd/user for system-wide ones (systemd.unit(5), "User Unit Search Path").
USERUNITDIR ?= $(if $(filter $(HOME)/.local,$(PREFIX)),$(DATADIR)/systemd/user,$(PREFIX)/lib/systemd/user)
RELEASE_FLAGS := -c release $(SWIFT_CODEGEN) --static-swift-stdlib --scratch-path .build-install
RELEASE_BIN    = .build-install/release/chime
# Stripped: 68 MB instead of 107 MB (symbols and debug info; the Swift metadata stays). INSTALL_STRIP= keeps them.
INSTALL_STRIP ?= -s
# The files install puts under $(DESTDIR), one a line (uninstall removes these).
INSTALLED_FILES = $(BINDIR)/chime $(USERUNITDIR)/chime.service $(DATADIR)/applications/chime.desktop \
	$(DATADIR)/icons/hicolor/scalable/apps/chime.svg $(MANDIR)/man1/chime.1 \
	$(DATADIR)/bash-completion/completions/chime $(DATADIR)/zsh/site-functions/_chime \
	$(DATADIR)/fish/vendor_completions.d/chime.fish $(DOCDIR)/README.md $(DOCDIR)/config.example.toml $(DOCDIR)/geoclue-chime.conf \
	$(DATADIR)/dbus-1/services/io.github.chime.Chime.service $(DATADIR)/dbus-1/interfaces/io.github.chime.Chime1.xml \
	$(foreach lang,$(CATALOGS),$(DATADIR)/locale/$(lang)/LC_MESSAGES/chime.mo)

release: build-deps
	$(SWIFT) build $(RELEASE_FLAGS) --product chime
	$(MAKE) --no-print-directory catalogs LOCALE_OUT=.build-install/release/locale

install: release
	install -Dm755 $(INSTALL_STRIP) $(RELEASE_BIN) "$(DESTDIR)$(BINDIR)/chime"
	install -d "$(DESTDIR)$(USERUNITDIR)" "$(DESTDIR)$(MANDIR)/man1" "$(DESTDIR)$(DATADIR)/bash-completion/completions" \
		"$(DESTDIR)$(DATADIR)/zsh/site-functions" "$(DESTDIR)$(DATADIR)/fish/vendor_completions.d"
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@DOCDIR@|$(DOCDIR)|g' Config/chime.service > "$(DESTDIR)$(USERUNITDIR)/chime.service"
	install -Dm644 Config/chime.desktop "$(DESTDIR)$(DATADIR)/applications/chime.desktop"
	install -d "$(DESTDIR)$(DATADIR)/dbus-1/services"
	sed -e 's|@BINDIR@|$(BINDIR)|g' Config/io.github.chime.Chime.service > "$(DESTDIR)$(DATADIR)/dbus-1/services/io.github.chime.Chime.service"
	install -Dm644 Config/io.github.chime.Chime1.xml "$(DESTDIR)$(DATADIR)/dbus-1/interfaces/io.github.chime.Chime1.xml"
	install -Dm644 Config/chime.svg "$(DESTDIR)$(DATADIR)/icons/hicolor/scalable/apps/chime.svg"
	python3 Config/chime-man.py $(RELEASE_BIN) > "$(DESTDIR)$(MANDIR)/man1/chime.1"
	$(RELEASE_BIN) --generate-completion-script bash > "$(DESTDIR)$(DATADIR)/bash-completion/completions/chime"
	$(RELEASE_BIN) --generate-completion-script zsh > "$(DESTDIR)$(DATADIR)/zsh/site-functions/_chime"
	$(RELEASE_BIN) --generate-completion-script fish > "$(DESTDIR)$(DATADIR)/fish/vendor_completions.d/chime.fish"
	install -Dm644 README.md "$(DESTDIR)$(DOCDIR)/README.md"
	install -Dm644 Config/config.toml "$(DESTDIR)$(DOCDIR)/config.example.toml"
	install -Dm644 Config/geoclue-chime.conf "$(DESTDIR)$(DOCDIR)/geoclue-chime.conf"
	for lang in $(CATALOGS); do \
		install -Dm644 .build-install/release/locale/$$lang/LC_MESSAGES/chime.mo "$(DESTDIR)$(DATADIR)/locale/$$lang/LC_MESSAGES/chime.mo"; \
	done
	@Config/post-install.sh "$(DESTDIR)" "$(BINDIR)" "$(DOCDIR)" "$(USERUNITDIR)"

uninstall:
	rm -f $(foreach f,$(INSTALLED_FILES),"$(DESTDIR)$(f)")
	rmdir "$(DESTDIR)$(DOCDIR)" 2>/dev/null || true
	@echo "removed chime; if it was running: systemctl --user disable --now chime && systemctl --user daemon-reload"

clean:
	rm -rf .build .build-test .build-install
