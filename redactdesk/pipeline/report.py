"""The release's ``report.html``: residual risk (table and histogram), leak scan, masking, prosody, sign-off.

One self-contained file: styles inline, the histogram embedded as a base64 PNG drawn with
matplotlib's object API (no pyplot state, safe off the GUI thread). Everything shown comes from the
manifest, which holds no original values; every value is HTML-escaped.
"""

from __future__ import annotations

import base64
import io
from collections import Counter
from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

from redactdesk.risk.residual import RiskSummary

STYLE = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:60em;color:#222;line-height:1.4}
h1{font-size:1.5em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}
th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums}
.banner{background:#b00020;color:#fff;padding:.6em 1em;font-weight:bold;font-size:1.2em}
.verdict-ok{background:#1b5e20;color:#fff;padding:.6em 1em;font-weight:bold;font-size:1.2em}
.pass{color:#1b5e20;font-weight:bold}.fail{color:#b00020;font-weight:bold}.muted{color:#666}
"""


def histogram_png(scores: Iterable[float], threshold: float, mean: float, criterion: float) -> bytes:
    """PNG of the per-conversation residual-risk scores with the mean, mu+sigma and the threshold."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    values = [int(s) for s in scores]
    counts = Counter(values)
    top = max([*values, int(threshold) + 1, 1])
    xs = list(range(0, top + 1))
    fig = Figure(figsize=(6.4, 3.2), dpi=100)
    ax = fig.add_subplot(1, 1, 1)
    ax.bar(xs, [counts.get(x, 0) for x in xs], width=0.8, color="#5677a6", label="conversations")
    ax.axvline(mean, color="#333333", linestyle=":", label=f"mean {mean:.2f}")
    ax.axvline(criterion, color="#e08000", linestyle="--", label=f"mu+sigma {criterion:.2f}")
    ax.axvline(threshold, color="#b00020", linestyle="-", label=f"threshold {threshold:g}")
    ax.set_xlabel("residual-risk score per conversation")
    ax.set_ylabel("conversations")
    ax.set_xlim(-0.6, top + 0.6)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(loc="upper right", fontsize="small")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    return buf.getvalue()


def _table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    head = "".join(f"<th>{escape(str(h))}</th>" for h in headers)
    body = []
    for row in rows:
        cells = []
        for v in row:
            if isinstance(v, float):
                cells.append(f'<td class="n">{v:.3f}</td>')
            elif isinstance(v, int) and not isinstance(v, bool):
                cells.append(f'<td class="n">{v}</td>')
            else:
                cells.append(f"<td>{escape('' if v is None else str(v))}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


def _verdict(ok: bool, yes: str = "PASS", no: str = "FAIL") -> str:
    return f'<span class="pass">{yes}</span>' if ok else f'<span class="fail">{no}</span>'


def render_report(manifest: dict[str, Any], risk: RiskSummary, prosody: Sequence[dict[str, Any]] = ()) -> str:
    """The HTML report of a release described by ``manifest`` (see ``export_release``)."""
    draft = bool(manifest.get("draft"))
    verdict = str(manifest.get("verdict") or ("DRAFT — NOT FOR RELEASE" if draft else "UNKNOWN"))
    head_word = verdict.split(":")[0]
    # the verdict is the file's first line (a comment may precede the doctype) and the page's first words
    parts = [f"<!-- {escape(verdict).replace('--', '—')} -->",
             f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{escape(head_word)} — "
             f"redactdesk release report</title><style>{STYLE}</style></head><body>"]
    ok = verdict.startswith("PASS")
    parts.append(f'<div class="{"verdict-ok" if ok else "banner"}" id="verdict">{escape(verdict)}</div>')
    if draft:
        parts.append('<div class="banner">DRAFT — not signed off for release. Do not share.</div>')
    parts.append(f"<h1>Release report: {escape(str(manifest.get('release', '')))}</h1>")
    convs = manifest.get("conversations", [])
    parts.append(f"<p>{len(convs)} conversation(s), {sum(c.get('items', 0) for c in convs)} anonymised item(s); "
                 f"written {escape(str(manifest.get('created', '')))} by redactdesk "
                 f"{escape(str(manifest.get('tool_version', '')))}.</p>")

    gate = manifest.get("gate") or {}
    if gate:
        parts.append("<h2>Release gate</h2>")
        parts.append(_table(["conversations", "released", "excluded", "ready", "undecided suggestions",
                             "never detected", "not reviewed", "released by override"],
                            [[gate.get("conversations", 0), gate.get("included", 0), gate.get("excluded", 0),
                              gate.get("ready", 0), gate.get("undecided_suggestions", 0),
                              gate.get("never_detected", 0) + gate.get("no_transcript", 0),
                              gate.get("not_reviewed", 0), gate.get("overridden", 0)]]))
        overrides = gate.get("overrides") or {}
        if overrides:
            parts.append('<p class="fail">Released although not fully reviewed, by the reviewer\'s written '
                         "override (open suggestions were anonymised as suggested; residual risk unknown):</p>")
            parts.append(_table(["conversation", "what was open", "reason"],
                                [[cid, ", ".join(o.get("open", [])), o.get("reason", "")]
                                 for cid, o in sorted(overrides.items())]))
        if gate.get("excluded_ids"):
            parts.append(f"<p>Excluded by the sign-off: {escape(', '.join(gate['excluded_ids']))}</p>")
    recheck = manifest.get("recheck") or {}
    if recheck:
        n_open, n_allow = int(recheck.get("undecided", 0)), int(recheck.get("allow_listed", 0))
        parts.append(f"<p>Detection run again over the released text: {n_open} item(s) nobody decided about "
                     f"{_verdict(n_open == 0, 'none')}"
                     + (f"; {n_allow} found item(s) are on the project's signed allow list" if n_allow else "")
                     + "</p>")

    so = manifest.get("signoff", {})
    parts.append("<h2>Sign-off</h2>")
    state = so.get("state")
    if state == "valid":
        parts.append(f"<p>{_verdict(True, 'Signed off')} by {escape(str(so.get('reviewer')))} at "
                     f"{escape(str(so.get('at')))}.</p>")
    elif state == "stale":
        parts.append(f"<p>{_verdict(False, no='STALE')}: signed by {escape(str(so.get('reviewer')))} at "
                     f"{escape(str(so.get('at')))}, but decisions or settings changed since.</p>")
    else:
        parts.append(f"<p>{_verdict(False, no='NOT SIGNED OFF')}</p>")
    if so.get("comment"):
        parts.append(f"<p>Comment: {escape(str(so['comment']))}</p>")
    parts.append(f"<p class=\"muted\">Content hash at export: <code>{escape(str(manifest.get('content_hash')))}"
                 f"</code>; signed: <code>{escape(str(so.get('content_hash')))}</code></p>")

    parts.append("<h2>Residual risk</h2>")
    parts.append(_table(["conversations", "mean", "sd", "P95", "max", "mu+sigma", "threshold", "result"],
                        [[len(risk.scores), risk.mean, risk.sd, risk.p95, risk.max, risk.criterion,
                          risk.threshold, risk.verdict]]))
    parts.append(f"<p>Criterion: mu + sigma = {risk.criterion:.2f} against threshold {risk.threshold:g}: "
                 f"{_verdict(risk.passed, no=risk.verdict)}</p>")
    if risk.unknown:
        parts.append(f'<p class="fail">Not reviewed, so their residual risk is unknown (not 0): '
                     f"{escape(', '.join(risk.unknown))}</p>")
    png = histogram_png(risk.scores.values(), risk.threshold, risk.mean, risk.criterion)
    parts.append(f'<img alt="histogram of residual-risk scores" src="data:image/png;base64,'
                 f'{base64.b64encode(png).decode("ascii")}">')
    if risk.by_category:
        parts.append("<p>Missed items by category:</p>")
        parts.append(_table(["category", "missed items"], sorted(risk.by_category.items())))
    if risk.scores:
        parts.append(_table(["conversation", "score"], sorted(risk.scores.items())))

    leak = manifest.get("leak_scan", {})
    parts.append("<h2>Leak scan</h2>")
    parts.append(f"<p>Original values found in the released text: {leak.get('text_findings', 0)} "
                 f"{_verdict(not leak.get('text_findings'), 'none')}</p>")
    cross = leak.get("cross_conversation") or {}
    if cross:
        parts.append("<p>Possible misses: values accepted (and anonymised) in one conversation are said "
                     "unanonymised in these conversations. They may be surrogates that happen to match, or "
                     "personal data the review missed there:</p>")
        parts.append(_table(["conversation", "category", "occurrences"],
                            [[cid, cat, n] for cid, cats in sorted(cross.items()) for cat, n in sorted(cats.items())]))
    if leak.get("relisten_run"):
        n = int(leak.get("relisten_leaks", 0))
        parts.append(f"<p>Masked audio re-listened: {n} accepted item(s) still recognised "
                     f"{_verdict(n == 0, 'none')}</p>")
        rows = [[cid, r.get("leaks", 0), r.get("items_checked", ""), r.get("ranges_checked", "")]
                for cid, r in sorted(leak.get("relisten", {}).items())]
        if rows:
            parts.append(_table(["conversation", "recognised items", "items checked", "ranges checked"], rows))
    else:
        parts.append('<p class="fail">The masked audio was not re-listened for this release: no recogniser checked it.</p>')
    override = manifest.get("leak_override")
    if override:
        parts.append(f"<p class=\"fail\">Leaks overridden by {escape(str(override.get('by')))} "
                     f"({escape(str(override.get('role')))}) at {escape(str(override.get('at')))}: "
                     f"{escape(str(override.get('reason')))}</p>")

    mask = manifest.get("mask", {})
    parts.append("<h2>Masking</h2>")
    parts.append(f"<p>Method: {escape(str(mask.get('method')))}; parameters: "
                 f"{escape(str(mask.get('params') or 'defaults'))}</p>")
    audio = mask.get("audio", {})
    if audio:
        parts.append(_table(["conversation", "ranges", "masked s", "format", "rate", "channels"],
                            [[cid, a.get("ranges"), a.get("masked_seconds"), f"{a.get('format')} {a.get('subtype')}",
                              a.get("sample_rate"), a.get("channels")] for cid, a in sorted(audio.items())]))

    parts.append("<h2>Prosody</h2>")
    if prosody:
        keys = [k for k in prosody[0] if isinstance(prosody[0][k], (int, float, str, type(None)))]
        parts.append(_table(keys, [[r.get(k) for k in keys] for r in prosody]))
    else:
        parts.append('<p class="muted">Prosody metrics were not measured for this release.</p>')

    if manifest.get("warnings"):
        parts.append("<h2>Warnings</h2><ul>" + "".join(f"<li>{escape(w)}</li>" for w in manifest["warnings"])
                     + "</ul>")
    settings = manifest.get("settings", {})
    if settings:
        parts.append("<h2>Settings</h2>")
        parts.append(_table(["setting", "value"], [[k, str(v)] for k, v in settings.items()]))
    parts.append("</body></html>\n")
    return "\n".join(parts)
