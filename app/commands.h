// The modes of the drape executable. main() picks one from the first argument; each mode
// parses its own options and creates the kind of Qt application it needs (none of the batch
// modes needs a display).
#pragma once

namespace drape::app {

/// `drape [SCENE]`, `drape --help`, `drape --version`: the editor (needs a display).
int runEditor(int argc, char **argv);
/// `drape simulate SCENE [--frames N] [--out FILE] [--obj-sequence DIR]`.
int runSimulate(int argc, char **argv);
/// `drape render SCENE --frames N --fps F --size WxH -o OUT`.
int runRender(int argc, char **argv);
/// `drape import MESH --as cloth|collider [--into SCENE] -o OUT.json [--scale S] [--up y|z]`.
int runImport(int argc, char **argv);

/// `drape bench-viewport [--size WxH] [--frames N]`: the viewport's draw time per preset.
int runBenchViewport(int argc, char **argv);

/// One-paragraph summaries shown by `drape --help`.
const char *simulateUsage();
const char *renderUsage();
const char *importUsage();
const char *benchViewportUsage();

} // namespace drape::app
