from redactdesk.pipeline.report import render_report
from redactdesk.risk.residual import RiskSummary

HOSTILE = "<script>alert(1)</script>"


def test_hostile_ids_and_categories_come_out_escaped():
    manifest = {
        "verdict": f"PASS: {HOSTILE}", "release": HOSTILE,
        "conversations": [{"id": HOSTILE, "items": 1}],
        "gate": {"conversations": 1, "excluded_ids": [HOSTILE],
                 "overrides": {HOSTILE: {"open": [HOSTILE], "reason": HOSTILE}}},
        "signoff": {"state": "valid", "reviewer": HOSTILE, "at": "t", "comment": HOSTILE},
        "leak_scan": {"cross_conversation": {HOSTILE: {HOSTILE: 1}}, "relisten_run": True,
                      "relisten": {HOSTILE: {"leaks": 0}}},
        "mask": {"method": HOSTILE, "audio": {HOSTILE: {"format": HOSTILE}}},
        "warnings": [HOSTILE], "settings": {HOSTILE: HOSTILE},
    }
    risk = RiskSummary(scores={HOSTILE: 1}, mean=1.0, sd=0.0, p95=1.0, max=1, threshold=5.0,
                       by_category={HOSTILE: 1})
    html = render_report(manifest, risk, [{"conversation": HOSTILE, HOSTILE: HOSTILE}])
    assert "<script" not in html
    assert html.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 15
    assert html.splitlines()[0].startswith("<!-- PASS: &lt;script&gt;")
