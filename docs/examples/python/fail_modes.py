from receiptgate import Detector, DetectorRegistry, Gate, GateConfig, Pattern
from receiptgate.claims.detectors.base import load_plugin_detectors


class Broken(Detector):
    """A detector with a bug: it raises on every match."""

    id = "broken"
    category = "system_state"
    PATTERNS = (Pattern("any", r"\bdeploy", subject="self", assertion="x"),)

    def validate_result(self, claim, text, sentence, match):
        raise RuntimeError("boom")


registry = DetectorRegistry()
load_plugin_detectors(registry)  # the built-ins and installed plugins
registry.register(Broken())

text = "The deploy finished at 14:05."
for mode in ("fail_open", "fail_closed"):
    gate = Gate(GateConfig(fail_mode=mode), detectors=registry)
    r = gate.validate(text)
    print(mode, "->", r.verdict, r.fail_mode_applied, r.audit_verdict)
    print("   error:", r.error)
    print("   delivered:", r.delivered_text)
