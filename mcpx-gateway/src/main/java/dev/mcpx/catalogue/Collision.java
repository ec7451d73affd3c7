package dev.mcpx.catalogue;

/** Two upstreams expose the same name; {@code kept} wins (config order), {@code dropped} is hidden. */
public record Collision(ListKind kind, String exposedName, String kept, String dropped) {

    public String describe() {
        return kind.field() + " name \"" + exposedName + "\" is offered by both \"" + kept + "\" and \""
                + dropped + "\"; \"" + dropped + "\"'s is hidden: give one of them a different \"prefix\" in the config";
    }
}
