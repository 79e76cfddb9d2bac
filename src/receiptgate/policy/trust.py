"""Trust-proportional validation (RFC-003 §9): tiers, profiles and overrides.

Resolution order, later steps winning: the config ``defaults`` (used as is when
no trust score is given), then the tier profile of the trust score (§9.2), then
the profile named by the first matching agent override, then that override's
individual policies. Overrides match by glob (``fnmatch``) in list order.
"""

from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Literal

from receiptgate.config import AgentOverride, GateConfig, PolicyAction, ProfileName

TrustTier = Literal["untrusted", "restricted", "standard", "trusted", "privileged"]
DetectionDepth = Literal["all", "contradiction_only"]


@dataclass(frozen=True, slots=True)
class Profile:
    """A set of policies and a detection depth."""

    unverified: PolicyAction
    contradiction: PolicyAction
    self_referential: PolicyAction
    depth: DetectionDepth


#: RFC-003 §9.2, one row per tier.
TIER_PROFILES: dict[TrustTier, Profile] = {
    "untrusted": Profile("block", "block", "block", "all"),
    "restricted": Profile("flag", "block", "flag", "all"),
    "standard": Profile("flag", "flag", "flag", "all"),
    "trusted": Profile("ignore", "flag", "ignore", "contradiction_only"),
    "privileged": Profile("ignore", "flag", "ignore", "contradiction_only"),
}

#: Named profiles for agent overrides. ``strict`` is the untrusted row (blocking
#: unverified claims is opt-in, RFC-003 §14.4), ``standard`` the RFC §10.2
#: defaults, ``lenient`` the trusted row; ``disabled`` skips validation.
NAMED_PROFILES: dict[ProfileName, Profile] = {
    "strict": Profile("block", "block", "block", "all"),
    "standard": Profile("flag", "block", "flag", "all"),
    "lenient": Profile("ignore", "flag", "ignore", "contradiction_only"),
    "disabled": Profile("ignore", "ignore", "ignore", "contradiction_only"),
}


def trust_tier(score: int) -> TrustTier:
    """Maps a 0–100 trust score to its tier (RFC-003 §9.2)."""
    if score < 20:
        return "untrusted"
    if score < 40:
        return "restricted"
    if score < 60:
        return "standard"
    if score < 80:
        return "trusted"
    return "privileged"


@dataclass(frozen=True, slots=True)
class EffectivePolicy:
    """What applies to one validation, and why."""

    profile: Profile
    disabled: bool
    tier: TrustTier | None
    source: str  # e.g. "defaults", "tier:restricted", "override:forge(profile=strict)"
    additional_registries: tuple[str, ...] = ()
    exclude_registries: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {
            "unverified_claim_policy": self.profile.unverified,
            "contradiction_policy": self.profile.contradiction,
            "self_referential_policy": self.profile.self_referential,
            "detection_depth": self.profile.depth,
            "disabled": self.disabled,
            "source": self.source,
        }


def find_override(config: GateConfig, agent_id: str | None) -> AgentOverride | None:
    """The first override whose ``agent`` glob matches ``agent_id``."""
    if agent_id is None:
        return None
    for override in config.agent_overrides:
        if fnmatchcase(agent_id, override.agent):
            return override
    return None


def resolve_policy(config: GateConfig, agent_id: str | None, trust: int | None) -> EffectivePolicy:
    """Resolves the policies for one agent at one trust score."""
    d = config.defaults
    profile = Profile(
        d.unverified_claim_policy, d.contradiction_policy, d.self_referential_policy, "all"
    )
    source = "defaults"
    tier: TrustTier | None = None
    if trust is not None:
        tier = trust_tier(trust)
        profile = TIER_PROFILES[tier]
        source = f"tier:{tier}"
    override = find_override(config, agent_id)
    if override is None:
        return EffectivePolicy(profile, False, tier, source)
    disabled = False
    parts: list[str] = []
    if override.profile is not None:
        profile = NAMED_PROFILES[override.profile]
        disabled = override.profile == "disabled"
        parts.append(f"profile={override.profile}")
    changes = {
        "unverified": override.unverified_claim_policy,
        "contradiction": override.contradiction_policy,
        "self_referential": override.self_referential_policy,
    }
    for name, value in changes.items():
        if value is not None:
            parts.append(f"{name}={value}")
    profile = Profile(
        changes["unverified"] or profile.unverified,
        changes["contradiction"] or profile.contradiction,
        changes["self_referential"] or profile.self_referential,
        profile.depth,
    )
    label = f"override:{override.agent}"
    if parts:
        label += "(" + ", ".join(parts) + ")"
    return EffectivePolicy(
        profile,
        disabled,
        tier,
        f"{source}+{label}",
        tuple(override.additional_registries),
        tuple(override.exclude_registries),
    )
