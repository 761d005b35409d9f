"""The release's ``report.html``: residual risk (table and histogram), leak scan, masking, prosody, sign-off.

One self-contained file: styles inline, the histogram embedded as a base64 PNG drawn with
matplotlib's object API (no pyplot state, safe off the GUI thread). Everything shown comes from the
manifest, which holds no original values. The page is a Jinja2 template with autoescape on: every
value is HTML-escaped unless the template marks it otherwise (only the embedded PNG is).
"""

from __future__ import annotations

import base64
import io
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

import jinja2

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


TEMPLATE = """\
{%- macro table(headers, rows) -%}
<table><tr>{% for h in headers %}<th>{{ h }}</th>{% endfor %}</tr>
{%- for row in rows %}<tr>
{%- for v in row %}{% if v is float %}<td class="n">{{ '%.3f' | format(v) }}</td>
{%- elif v is integer %}<td class="n">{{ v }}</td>
{%- else %}<td>{{ '' if v is none else v }}</td>{% endif %}{% endfor %}</tr>{% endfor %}</table>
{%- endmacro -%}
{%- macro verdict(ok, yes="PASS", no="FAIL") -%}
{% if ok %}<span class="pass">{{ yes }}</span>{% else %}<span class="fail">{{ no }}</span>{% endif %}
{%- endmacro -%}
<!-- {{ verdict_line | replace('--', '—') }} -->
<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{{ verdict_line.split(':')[0] }} — redactdesk release report</title><style>{{ style }}</style></head><body>
<div class="{{ 'verdict-ok' if verdict_line.startswith('PASS') else 'banner' }}" id="verdict">{{ verdict_line }}</div>
{% if m.draft %}<div class="banner">DRAFT — not signed off for release. Do not share.</div>
{% endif -%}
<h1>Release report: {{ m.release or '' }}</h1>
<p>{{ convs | length }} conversation(s), {{ convs | sum(attribute='items') }} anonymised item(s); written {{ m.created or '' }} by redactdesk {{ m.tool_version or '' }}.</p>
{% if gate -%}
<h2>Release gate</h2>
{{ table(["conversations", "released", "excluded", "ready", "undecided suggestions", "never detected", "not reviewed",
          "released by override"],
         [[gate.conversations or 0, gate.included or 0, gate.excluded or 0, gate.ready or 0,
           gate.undecided_suggestions or 0, (gate.never_detected or 0) + (gate.no_transcript or 0),
           gate.not_reviewed or 0, gate.overridden or 0]]) }}
{% if gate.overrides -%}
<p class="fail">Released although not fully reviewed, by the reviewer's written override (open suggestions were anonymised as suggested; residual risk unknown):</p>
{{ table(["conversation", "what was open", "reason"],
         gate.overrides | dictsort | map('override_row') | list) }}
{% endif -%}
{% if gate.excluded_ids %}<p>Excluded by the sign-off: {{ gate.excluded_ids | join(', ') }}</p>
{% endif -%}
{% endif -%}
{% if recheck -%}
<p>Detection run again over the released text: {{ (recheck.undecided or 0) | int }} item(s) nobody decided about {{ verdict((recheck.undecided or 0) | int == 0, 'none') }}
{%- if (recheck.allow_listed or 0) | int %}; {{ (recheck.allow_listed or 0) | int }} found item(s) are on the project's signed allow list{% endif %}</p>
{% endif -%}
<h2>Sign-off</h2>
{% if so.state == 'valid' -%}
<p>{{ verdict(true, 'Signed off') }} by {{ so.reviewer | string }} at {{ so.at | string }}.</p>
{% elif so.state == 'stale' -%}
<p>{{ verdict(false, no='STALE') }}: signed by {{ so.reviewer | string }} at {{ so.at | string }}, but decisions or settings changed since.</p>
{% else -%}
<p>{{ verdict(false, no='NOT SIGNED OFF') }}</p>
{% endif -%}
{% if so.comment %}<p>Comment: {{ so.comment }}</p>
{% endif -%}
<p class="muted">Content hash at export: <code>{{ m.content_hash | string }}</code>; signed: <code>{{ so.content_hash | string }}</code></p>
<h2>Residual risk</h2>
{{ table(["conversations", "mean", "sd", "P95", "max", "mu+sigma", "threshold", "result"],
         [[risk.scores | length, risk.mean, risk.sd, risk.p95, risk.max, risk.criterion, risk.threshold, risk.verdict]]) }}
<p>Criterion: mu + sigma = {{ '%.2f' | format(risk.criterion) }} against threshold {{ '%g' | format(risk.threshold) }}: {{ verdict(risk.passed, no=risk.verdict) }}</p>
{% if risk.unknown %}<p class="fail">Not reviewed, so their residual risk is unknown (not 0): {{ risk.unknown | join(', ') }}</p>
{% endif -%}
<img alt="histogram of residual-risk scores" src="data:image/png;base64,{{ histogram_b64 }}">
{% if risk.by_category -%}
<p>Missed items by category:</p>
{{ table(["category", "missed items"], risk.by_category | dictsort) }}
{% endif -%}
{% if risk.scores %}{{ table(["conversation", "score"], risk.scores | dictsort) }}
{% endif -%}
<h2>Leak scan</h2>
<p>Original values found in the released text: {{ leak.text_findings or 0 }} {{ verdict(not leak.text_findings, 'none') }}</p>
{% if leak.cross_conversation -%}
<p>Possible misses: values accepted (and anonymised) in one conversation are said unanonymised in these conversations. They may be surrogates that happen to match, or personal data the review missed there:</p>
{{ table(["conversation", "category", "occurrences"], cross_rows) }}
{% endif -%}
{% if leak.relisten_run -%}
<p>Masked audio re-listened: {{ (leak.relisten_leaks or 0) | int }} accepted item(s) still recognised {{ verdict((leak.relisten_leaks or 0) | int == 0, 'none') }}</p>
{% if relisten_rows %}{{ table(["conversation", "recognised items", "items checked", "ranges checked"], relisten_rows) }}
{% endif -%}
{% else -%}
<p class="fail">The masked audio was not re-listened for this release: no recogniser checked it.</p>
{% endif -%}
{% if m.leak_override -%}
<p class="fail">Leaks overridden by {{ m.leak_override.by | string }} ({{ m.leak_override.role | string }}) at {{ m.leak_override.at | string }}: {{ m.leak_override.reason | string }}</p>
{% endif -%}
<h2>Masking</h2>
<p>Method: {{ mask.method | string }}; parameters: {{ (mask.params or 'defaults') | string }}</p>
{% if audio_rows %}{{ table(["conversation", "ranges", "masked s", "format", "rate", "channels"], audio_rows) }}
{% endif -%}
<h2>Prosody</h2>
{% if prosody -%}
{{ table(prosody_keys, prosody | map('prosody_row', prosody_keys) | list) }}
{% else -%}
<p class="muted">Prosody metrics were not measured for this release.</p>
{% endif -%}
{% if m.warnings %}<h2>Warnings</h2><ul>{% for w in m.warnings %}<li>{{ w }}</li>{% endfor %}</ul>
{% endif -%}
{% if m.settings -%}
<h2>Settings</h2>
{{ table(["setting", "value"], m.settings | dictsort | map('setting_row') | list) }}
{% endif -%}
</body></html>
"""


@cache
def _template() -> jinja2.Template:
    env = jinja2.Environment(autoescape=True, undefined=jinja2.ChainableUndefined, keep_trailing_newline=True)
    env.filters["override_row"] = lambda item: [item[0], ", ".join(item[1].get("open", [])), item[1].get("reason", "")]
    env.filters["prosody_row"] = lambda row, keys: [row.get(k) for k in keys]
    env.filters["setting_row"] = lambda item: [item[0], str(item[1])]
    return env.from_string(TEMPLATE)


def render_report(manifest: dict[str, Any], risk: RiskSummary, prosody: Sequence[dict[str, Any]] = ()) -> str:
    """The HTML report of a release described by ``manifest`` (see ``export_release``)."""
    draft = bool(manifest.get("draft"))
    leak = manifest.get("leak_scan", {})
    audio = (manifest.get("mask") or {}).get("audio", {})
    png = histogram_png(risk.scores.values(), risk.threshold, risk.mean, risk.criterion)
    return _template().render(
        m=manifest, risk=risk, prosody=list(prosody), style=STYLE,
        verdict_line=str(manifest.get("verdict") or ("DRAFT — NOT FOR RELEASE" if draft else "UNKNOWN")),
        convs=manifest.get("conversations", []), gate=manifest.get("gate") or {},
        recheck=manifest.get("recheck") or {}, so=manifest.get("signoff", {}), leak=leak,
        mask=manifest.get("mask", {}), histogram_b64=base64.b64encode(png).decode("ascii"),
        cross_rows=[[cid, cat, n] for cid, cats in sorted((leak.get("cross_conversation") or {}).items())
                    for cat, n in sorted(cats.items())],
        relisten_rows=[[cid, r.get("leaks", 0), r.get("items_checked", ""), r.get("ranges_checked", "")]
                       for cid, r in sorted(leak.get("relisten", {}).items())],
        audio_rows=[[cid, a.get("ranges"), a.get("masked_seconds"), f"{a.get('format')} {a.get('subtype')}",
                     a.get("sample_rate"), a.get("channels")] for cid, a in sorted(audio.items())],
        prosody_keys=[k for k in prosody[0] if isinstance(prosody[0][k], (int, float, str, type(None)))]
        if prosody else [],
    )
