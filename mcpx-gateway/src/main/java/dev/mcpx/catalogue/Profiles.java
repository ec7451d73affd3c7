package dev.mcpx.catalogue;

import java.util.Map;
import java.util.Optional;

/** The profile of {@code /mcp} ({@code whole}: the gateway-wide search setting) and the named ones. */
public record Profiles(Profile whole, Map<String, Profile> named) {

    public static final Profiles NONE = new Profiles(Profile.WHOLE, Map.of());

    public Profiles {
        named = Map.copyOf(named);
    }

    /** The profile called {@code name}; null or empty names the default one. */
    public Optional<Profile> find(String name) {
        return name == null || name.isEmpty() ? Optional.of(whole) : Optional.ofNullable(named.get(name));
    }
}
