fn main() {
    // Builds ./agent-bundle.config.ts into $OUT_DIR/agent-bundle/artifact; warnings become
    // cargo:warning lines, errors fail the build, and AGENT_BUNDLE_ARTIFACT names the folder.
    agent_bundle::build_script().run_or_exit();
}
