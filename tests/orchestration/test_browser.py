"""A real browser on what people look at: the Dagster asset graph of a `dagster dev` started here,
and the HTML evaluation report. Needs Debian's chromium and the `playwright` package (its own
browser download cannot work offline); `make test-browser` installs both and runs this. Without
them it skips and says so. Screenshots are kept under `.test-artifacts/browser/`."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / ".test-artifacts" / "browser"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHECKS = {"l1_facts": "facts_valid", "l2_organisation": "organisation_valid", "l3_syntheses": "syntheses_valid"}
GROUPS = {"sources": "paper_sources", "source_maps": "source_maps", "L1": "l1_facts", "L2": "l2_organisation", "L3": "l3_syntheses",
          "registry": "store_recheck", "index": "vector_index"}

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or shutil.which("dagster", path=str(Path(sys.executable).parent)) is None,
    reason="no chromium here: `make test-browser` installs it (apt-get install -y chromium) and playwright, and runs this test")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(url: str, proc: subprocess.Popen, seconds: float = 180) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"dagster dev exited with {proc.returncode} before answering {url}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(1)
    raise TimeoutError(f"dagster dev did not answer {url} within {seconds:.0f} s")


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed: `make test-browser` installs it")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])  # root in a container needs --no-sandbox
        yield b
        b.close()


@pytest.fixture(scope="module")
def dagster_ui(tmp_path_factory):
    home = tmp_path_factory.mktemp("dagster_home")
    (home / "dagster.yaml").write_text("telemetry:\n  enabled: false\n")
    port = _free_port()
    env = os.environ | {"DAGSTER_HOME": str(home), "SCHOLARSTACK_HOME": str(tmp_path_factory.mktemp("store")),
                        "DAGSTER_DISABLE_TELEMETRY": "1"}
    log = (ARTIFACTS.mkdir(parents=True, exist_ok=True), open(ARTIFACTS / "dagster_dev.log", "w"))[1]
    proc = subprocess.Popen([str(Path(sys.executable).parent / "dagster"), "dev", "-w", "workspace.yaml", "-p", str(port)],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        _wait_for(f"http://127.0.0.1:{port}/server_info", proc)
        yield f"http://127.0.0.1:{port}"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()


def test_the_asset_graph_shows_every_layer_and_its_checks(browser, dagster_ui):
    page = browser.new_page(viewport={"width": 1600, "height": 1000})
    page.goto(f"{dagster_ui}/asset-groups", wait_until="networkidle", timeout=120_000)
    skip = page.get_by_role("button", name="Skip")  # the first-visit community dialog
    if skip.count():
        skip.click()
    for group in GROUPS:  # the global lineage draws one node per group, in order
        page.get_by_text(group, exact=True).first.wait_for(timeout=60_000)
    page.screenshot(path=str(ARTIFACTS / "lineage.png"))
    for group, asset in GROUPS.items():  # each group's graph draws its layer's asset
        page.goto(f"{dagster_ui}/locations/scholarstack/asset-groups/{group}", wait_until="networkidle", timeout=120_000)
        try:
            page.get_by_text(asset, exact=True).first.wait_for(timeout=60_000)
        finally:  # the screenshot shows what was drawn, also when something was not
            page.screenshot(path=str(ARTIFACTS / f"group_{group}.png"))
    for asset, check in CHECKS.items():  # and each layer's checks on its page
        page.goto(f"{dagster_ui}/assets/{asset}?view=checks", wait_until="networkidle", timeout=120_000)
        page.get_by_text(check, exact=True).first.wait_for(timeout=60_000)
        page.screenshot(path=str(ARTIFACTS / f"{asset}_checks.png"))
    page.close()


def test_the_report_renders_its_contents_and_plots(browser, tmp_path):
    from evaluations.report import write_report
    from evaluations.sweep import Config, save_result
    from scholarstack.store import Store

    results = Store(tmp_path / "evals")
    for run, f1 in (("run1", 0.50), ("run2", 0.61)):
        save_result(results, Config(sweep="t", benchmark="claims"), {"n": 10, "systems": {"view": {"macro_f1": f1}}}, run)
        time.sleep(0.01)
    write_report(results, "t", tmp_path / "report")
    page = browser.new_page()
    page.goto((tmp_path / "report" / "report.html").as_uri())
    page.get_by_role("link", name="t.claims.offline").click()  # the contents link to the configuration
    images = page.locator("img")
    assert images.count() >= 1
    assert all(images.nth(i).evaluate("img => img.complete && img.naturalWidth > 0") for i in range(images.count()))  # plots load
    page.screenshot(path=str(ARTIFACTS / "report.png"), full_page=True)
    page.close()
