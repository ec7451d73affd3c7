/**
 * Tests of what a user installs and launches: the scripts in {@code bin/} ({@code find-java}, the
 * repository launcher {@code mcpx}, {@code package}) and the self-contained runtime image
 * {@code bin/package} makes. They run the real scripts as child processes.
 */
package dev.mcpx.install;
