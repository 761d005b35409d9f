# The two front-door commands are `make run` and `make test` (see README.md).
VENV := .venv
BIN := $(VENV)/bin
export HF_HUB_OFFLINE := 1

.PHONY: setup run run-headless test lint bench package screenshot clean

setup:
	@bash scripts/bootstrap.sh

# Opens the app on the demo project; with no display it runs the headless demo instead.
run: setup
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then $(BIN)/redactdesk demo; \
	else echo "no display: running the headless demo (for the window: xvfb-run make run)"; \
	     $(BIN)/redactdesk demo --headless; fi

run-headless: setup
	$(BIN)/redactdesk demo --headless

test: setup lint
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q

lint:
	$(BIN)/ruff check redactdesk tests benchmarks
	$(BIN)/lint-imports

bench: setup
	@for b in benchmarks/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

package: setup
	$(BIN)/python -m pip install -q -e ".[package]"
	$(BIN)/pyinstaller --noconfirm --distpath dist --workpath build packaging/redactdesk.spec

# Re-take the README screenshot of the demo project under a virtual screen.
screenshot: setup
	xvfb-run -a -s "-screen 0 1600x1000x24" $(BIN)/python -m redactdesk.gui.screenshot \
	  --decide 3 --out docs/screenshots/main-window.png

clean:
	rm -rf build dist .pytest_cache .ruff_cache
