// Undoable edits of cloths: one QUndoCommand per user gesture (a click, a whole stroke, a
// whole drag), however many core edits it is made of.
//
// Design. A cloth exists twice: as authoring data (the scene's ClothDesc, what is saved,
// undone and rebuilt on Reset) and as a running Cloth in the simulation. An edit keeps both
// in step:
//
//  * The running cloth is changed by core operations (core/edit/clothedit.h, cut.h, grab.h) that
//    return a ClothEdit holding whole records before and after, so revert() restores the
//    running cloth bit for bit and apply() redoes it. A gesture may apply several edits
//    live (each segment of a cut stroke); the command keeps them in order and reverts them
//    in reverse order.
//  * The scene's ClothDesc is replaced as a whole. A pure pin change of a generated cloth
//    (grid, rope) only rewrites `pins`; any other edit turns the description into explicit
//    lists taken from the running cloth (explicitFromCloth: rest positions from
//    Particles::rest, pins as the `pins` list, per-constraint properties kept). The command
//    stores the description before and after as shared immutable copies, so undo and redo
//    restore the scene exactly (Scene == the copy saved before the edit).
//  * Particles the cloth tears off by itself while running are not undo steps. Before
//    reverting (or re-applying) the command compares a fingerprint of the running cloth's
//    topology with the one it left behind. When they differ (the cloth tore meanwhile) the
//    exact path is impossible, so the running cloth is rebuilt from the restored ClothDesc,
//    keeping the current position, previous position and velocity of every particle index
//    that still exists (pins stay at their authored place), and the simulation plays on.
//  * Moving a pin (curtain hooks) also moves its rest position, in the running cloth and in
//    the description, so that Reset and a reopened file put the hook where it was dropped.
//
// Dragging free cloth is an interaction, not an edit: it changes only the running state,
// which Reset rebuilds anyway, so it pushes no command. Dragging a pin is an edit.
#pragma once

#include "edit/clothedit.h"
#include "scene/scene.h"

#include <QUndoCommand>

#include <cstdint>
#include <memory>
#include <vector>

namespace drape {

class Document;

/// FNV-1a hash of a cloth's topology (particle count, constraint records, triangles).
std::uint64_t topologyFingerprint(const Cloth &cloth);
/// `previous` with its topology, masses and rest shape replaced by explicit lists taken from
/// the running `cloth`; pinned (static) particles become the `pins` list.
ClothDesc snapshotDesc(const ClothDesc &previous, const Cloth &cloth);
/// Number of particles the description builds (grid across × down, rope count, explicit rest size).
std::size_t descParticleCount(const ClothDesc &desc);
/// Rebuilds `cloth` from `desc`, keeping the motion of particle indices that still exist.
void rebuildKeepingMotion(Cloth &cloth, const ClothDesc &desc);

class ClothEditCommand : public QUndoCommand {
public:
    ClothEditCommand(Document *document, const QString &text, QUndoCommand *parent = nullptr);
    ~ClothEditCommand() override;

    /// Applies `edit` to running cloth `cloth` now and records it. Returns an error (nothing
    /// changed) when the edit does not fit the cloth. Use before the command is pushed.
    std::string applyEdit(int cloth, const ClothEdit &edit);
    /// Records a particle-only edit that the caller already applied (Grab::release()).
    void recordApplied(int cloth, const ClothEdit &edit);
    /// Sets the rest position of particle `index` (a moved pin) in the running cloth now.
    void setRest(int cloth, std::uint32_t index, const Vec3 &rest);
    /// Undoes everything applied so far (an aborted gesture); the command is then empty.
    void revertAll();
    /// True when nothing was recorded (do not push it).
    bool isEmpty() const;
    /// Takes the scene descriptions after the edits. Call once, right before pushing.
    void finish();

    void undo() override;
    void redo() override;

    /// The recorded edits of `cloth` (tests, selection remapping).
    std::vector<ClothEdit> editsOf(int cloth) const;

protected:
    /// Appends the edits of `next` (pushed right after this one, on the same cloths) so both
    /// undo as one step (slider drags). False when they cannot merge.
    bool absorb(const ClothEditCommand &next);
    Document *document() const { return m_document; }

private:
    struct RestChange {
        std::uint32_t index = 0;
        Vec3 before;
        Vec3 after;
    };
    struct ClothRecord {
        int cloth = -1;
        std::vector<ClothEdit> edits;  // in the order applied
        std::vector<RestChange> rests;
        std::shared_ptr<const ClothDesc> descBefore;
        std::shared_ptr<const ClothDesc> descAfter;
        std::uint64_t fingerprintBefore = 0; // running topology before the edits
        std::uint64_t fingerprintAfter = 0;  // running topology after them
        bool topology = false;               // any edit changed topology
    };
    ClothRecord &recordFor(int cloth);
    /// Reverts the running cloth exactly, or rebuilds it from the description when
    /// `checkFingerprint` finds that its topology changed since the edit.
    void revertRecord(ClothRecord &r, bool checkFingerprint);
    void applyRecord(ClothRecord &r);
    void notifyDocument();

    Document *m_document;
    std::vector<ClothRecord> m_records;
    bool m_finished = false;
    bool m_skipFirstRedo = true; // the gesture applied the edits live
};

} // namespace drape
