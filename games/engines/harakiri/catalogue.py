"""Which skills and Kami Modes the engine implements (pure data, the lowest layer).

``setup`` offers an Act 2 character only when all of their skills are here; ``actions`` offers
only the skills listed here; the engine's ``content()`` marks each skill implemented or not.
"""

# The skills of the Act 2 characters (Akane, Byakuei, Hanako, Takashi), implemented in ``act2``.
ACT2_SKILLS = {
    "my_loyal_friend", "self_taught", "recovery", "one_for_each", "patch", "bite", "adrenaline",
    "lightnings_dance", "full_of_resources_akane",
    "additional_help", "necessary_sacrifice", "good_for_both", "ill_change_it", "more_additional_help",
    "powered_hit", "come_together", "come_here", "hits_rain",
    "nemesis", "voracious_blade", "deadly", "blood_thirsty", "craft_improvement", "smell_the_blood", "cautious",
    "you_and_me", "duel_to_death",
    "intimidation", "inspiration", "upward_cut", "reborn_strength", "fluid_tactic", "team_hit",
    "tactical_retreat", "the_last_word", "new_breath",
}

# Skills the code implements (others are listed in the content with "implemented": false and
# never offered by legal_commands).
IMPLEMENTED = {
    # Act 1 characters
    "sixth_sense", "counter_attack", "stab", "defensive_stance", "dodgy",
    "roll", "metsubushi", "elusive", "evade", "energy_alteration",
    "healing", "menacing_shadow", "ebisus_strike", "kamis_assistance", "drain_spirit", "healing_wave",
    "spiritual_protection",
    "military_discipline", "divine_arrow", "shockwave", "teamwork", "escort", "piercing", "full_of_resources",
    "crescent_strike", "concentration", "hachimans_wrath", "slaughter", "distraction", "relentless_vengeance",
    "arrows_mantle", "chained_slashes", "blinding_light", "ninja_shadow", "star_rain", "multi_form",
    # Kami level 3+
    "amaterasu_l3", "amatsumara_l3", "dosojin_l3", "hachiman_l3", "inari_l3", "shinigami_l3", "amatsumikaboshi_l3",
    "ryujin_l3", "susanoo_l3", "izanami_l3",
    # Kami level 1 that applies in the Exploration Phase
    "izanami_l1",
}
IMPLEMENTED |= ACT2_SKILLS  # Act 2 characters (Akane, Byakuei, Hanako, Takashi)
KAMI_MODES = {"amaterasu", "dosojin", "inari", "shinigami", "izanami", "ryujin", "amatsumara", "hachiman", "susanoo",
              "amatsumikaboshi"}
