# Precompiled headers (DRAPE_PCH). A test or an editor source spends most of its compile time
# parsing Qt's and the standard library's headers, and there are about 140 of them in each build
# (normal, sanitizers), so the headers they share are parsed once per target family instead:
# drape_ui (reused by the executable), the core and command-line tests, the editor tests.
# Only headers from outside the project go in, so that an edit of ours never rebuilds a PCH, and
# nothing that includes OpenGL's gl.h: the renderer includes libepoxy's header before any other.

set(DRAPE_PCH_STD <algorithm> <array> <cmath> <cstdint> <cstring> <functional> <limits> <map> <memory>
    <numeric> <optional> <random> <set> <string> <utility> <vector>)
set(DRAPE_PCH_WIDGETS <QtCore> <QAction> <QApplication> <QCheckBox> <QComboBox> <QDialog> <QDialogButtonBox>
    <QDockWidget> <QDoubleSpinBox> <QFileDialog> <QFormLayout> <QGridLayout> <QHBoxLayout> <QImage> <QKeyEvent>
    <QLabel> <QLineEdit> <QMainWindow> <QMenu> <QMessageBox> <QMouseEvent> <QPainter> <QPushButton> <QSpinBox>
    <QStatusBar> <QToolButton> <QUndoStack> <QVBoxLayout> <QWheelEvent> <QWidget>)

# drape_precompile(TARGET HEADERS...): TARGET precompiles HEADERS for its own sources.
function(drape_precompile target)
    if(DRAPE_PCH)
        target_precompile_headers(${target} PRIVATE ${ARGN})
    endif()
endfunction()

# drape_reuse_precompiled(TARGET FROM): TARGET's sources use FROM's precompiled headers (the two
# must compile with the same flags and definitions; GCC refuses a PCH that does not match, and
# -Winvalid-pch says so).
function(drape_reuse_precompiled target from)
    if(DRAPE_PCH)
        target_precompile_headers(${target} REUSE_FROM ${from})
    endif()
endfunction()
