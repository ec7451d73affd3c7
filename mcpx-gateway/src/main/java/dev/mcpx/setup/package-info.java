/**
 * {@code mcpx setup HOST}: moves a host's servers into mcpx's config and points the host at
 * {@code mcpx serve}, with a backup that {@code --undo} restores byte for byte. Owns the five
 * hosts' file locations and formats; reads and writes files only, never starts a server.
 */
package dev.mcpx.setup;
