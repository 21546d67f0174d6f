# The two commands: `make run` serves the production site, `make test` runs every test.
# Both install whatever is missing first; a second run reinstalls nothing unchanged.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PORT ?= 3000
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
TOOLS := .tools
TOOLS_BIN := $(TOOLS)/node_modules/.bin
BUN_VERSION := 1.4.4
NODE_VERSION := 22.23.3
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

export PATH := $(CURDIR)/$(TOOLS_BIN):$(CURDIR)/$(VENV)/bin:$(PATH)
export PORT
export REFLEX_TELEMETRY_ENABLED := false
export REFLEX_CHECK_LATEST_VERSION := 0
# Reflex otherwise probes a mirror registry; use the one npm is configured with.
export NPM_CONFIG_REGISTRY ?= $(shell npm config get registry 2>/dev/null)

.PHONY: help setup run dev test lint migrate bench clean

help:
	@echo "make run    build and serve the production site on http://localhost:$(PORT)"
	@echo "make test   lint and run every test (unit, API, browser)"
	@echo "make dev    Reflex dev mode with hot reload"
	@echo "make bench  benchmarks (not part of make test)"

$(VENV)/.installed: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(TOOLS)/.installed: Makefile
	npm install --prefix $(TOOLS) --no-audit --no-fund --loglevel=error \
		bun@$(BUN_VERSION) node@$(NODE_VERSION)
	$(TOOLS_BIN)/bun --version >/dev/null && $(TOOLS_BIN)/node --version >/dev/null
	touch $@

/usr/bin/chromium:
	$(SUDO) apt-get update -qq
	$(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium

setup: $(VENV)/.installed $(TOOLS)/.installed

migrate: setup
	$(PY) -m alembic upgrade head

run: migrate
	reflex run --env prod

dev: migrate
	reflex run --env dev

lint: setup
	ruff check .

test: setup /usr/bin/chromium lint
	$(PY) -m pytest

bench: setup migrate
	$(PY) -m tests.bench

clean:
	rm -rf .web assets/external
