// The Outliner's edits of whole objects: remove, duplicate and reorder are structural (the
// playhead returns to the start and the take's events follow their objects to their new
// indices, editdocument.cpp renumbered()); rename and hide change only what the viewport
// shows, so they replay nothing (withoutPresentation() leaves names and `hidden` out).
#include "edit/editdocument.h"

#include <algorithm>
#include <numeric>

namespace drape {

namespace {

bool isCloth(const SceneObject &o) { return o.kind == SceneObject::Kind::Cloth; }

// Sorted and unique, so a list picked in any order means the same objects.
std::vector<SceneObject> normalised(std::vector<SceneObject> objects)
{
    std::sort(objects.begin(), objects.end());
    objects.erase(std::unique(objects.begin(), objects.end()), objects.end());
    return objects;
}

std::vector<int> identityMap(std::size_t n)
{
    std::vector<int> map(n);
    std::iota(map.begin(), map.end(), 0);
    return map;
}

// Old index → new index once the objects marked `gone` are erased (-1 for those).
std::vector<int> erasedMap(const std::vector<bool> &gone)
{
    std::vector<int> map(gone.size(), -1);
    int next = 0;
    for (std::size_t i = 0; i < gone.size(); ++i)
        if (!gone[i])
            map[i] = next++;
    return map;
}

template <typename T> void eraseMarked(std::vector<T> &items, const std::vector<bool> &gone)
{
    std::vector<T> kept;
    for (std::size_t i = 0; i < items.size(); ++i)
        if (i >= gone.size() || !gone[i])
            kept.push_back(std::move(items[i]));
    items = std::move(kept);
}

// Moves element `from` to position `to`, returning old index → new index.
template <typename T> std::vector<int> moveItem(std::vector<T> &items, std::size_t from, std::size_t to)
{
    std::vector<int> order = identityMap(items.size()); // new position → old index
    const int moved = order[from];
    order.erase(order.begin() + std::ptrdiff_t(from));
    order.insert(order.begin() + std::ptrdiff_t(to), moved);
    std::vector<T> out;
    std::vector<int> map(items.size());
    for (std::size_t k = 0; k < order.size(); ++k) {
        out.push_back(std::move(items[std::size_t(order[k])]));
        map[std::size_t(order[k])] = int(k);
    }
    items = std::move(out);
    return map;
}

std::string describe(const std::vector<SceneObject> &objects, const char *verb)
{
    if (objects.size() == 1)
        return std::string(verb) + (isCloth(objects[0]) ? " cloth" : " collider");
    return std::string(verb) + " " + std::to_string(objects.size()) + " objects";
}

} // namespace

std::string EditDocument::checkObjects(const std::vector<SceneObject> &objects, bool structural) const
{
    if (structural && m_drag)
        return "finish the drag first";
    if (objects.empty())
        return "no object given";
    for (const SceneObject &o : objects) {
        const std::size_t count = isCloth(o) ? m_scene->cloths.size() : m_scene->colliders.size();
        if (o.index < 0 || std::size_t(o.index) >= count)
            return std::string(isCloth(o) ? "cloth " : "collider ") + std::to_string(o.index)
                + " out of range, the scene has " + std::to_string(count);
    }
    return {};
}

std::string EditDocument::removeObjects(std::vector<SceneObject> objects)
{
    objects = normalised(std::move(objects));
    if (std::string error = checkObjects(objects, true); !error.empty())
        return error;
    std::vector<bool> goneCloths(m_scene->cloths.size(), false), goneColliders(m_scene->colliders.size(), false);
    for (const SceneObject &o : objects)
        (isCloth(o) ? goneCloths : goneColliders)[std::size_t(o.index)] = true;
    Scene next = *m_scene;
    eraseMarked(next.cloths, goneCloths);
    eraseMarked(next.colliders, goneColliders);
    if (next.state) {
        eraseMarked(next.state->cloths, goneCloths);
        eraseMarked(next.state->colliderCenters, goneColliders);
    }
    renumbered(describe(objects, "Remove"), std::move(next), erasedMap(goneCloths), erasedMap(goneColliders));
    return {};
}

std::string EditDocument::duplicate(std::vector<SceneObject> objects)
{
    objects = normalised(std::move(objects));
    if (std::string error = checkObjects(objects, true); !error.empty())
        return error;
    Scene next = *m_scene;
    for (const SceneObject &o : objects) {
        const std::size_t i = std::size_t(o.index);
        if (isCloth(o)) {
            ClothDesc copy = m_scene->cloths[i];
            copy.name += " copy";
            next.cloths.push_back(std::move(copy));
            if (next.state && i < m_scene->state->cloths.size())
                next.state->cloths.push_back(m_scene->state->cloths[i]);
        } else {
            Collider copy = m_scene->colliders[i];
            copy.name += " copy";
            next.colliders.push_back(std::move(copy));
            if (next.state && i < m_scene->state->colliderCenters.size())
                next.state->colliderCenters.push_back(m_scene->state->colliderCenters[i]);
        }
    }
    // Appending renumbers nothing: every event keeps its object.
    renumbered(describe(objects, "Duplicate"), std::move(next), identityMap(m_scene->cloths.size()),
        identityMap(m_scene->colliders.size()));
    return {};
}

std::string EditDocument::moveObject(SceneObject object, int to)
{
    if (std::string error = checkObjects({ object }, true); !error.empty())
        return error;
    if (std::string error = checkObjects({ { object.kind, to } }, true); !error.empty())
        return "cannot move there: " + error;
    if (object.index == to)
        return {};
    Scene next = *m_scene;
    const std::size_t from = std::size_t(object.index);
    std::vector<int> clothMap = identityMap(next.cloths.size());
    std::vector<int> colliderMap = identityMap(next.colliders.size());
    if (isCloth(object)) {
        clothMap = moveItem(next.cloths, from, std::size_t(to));
        if (next.state && next.state->cloths.size() == next.cloths.size())
            moveItem(next.state->cloths, from, std::size_t(to));
    } else {
        colliderMap = moveItem(next.colliders, from, std::size_t(to));
        if (next.state && next.state->colliderCenters.size() == next.colliders.size())
            moveItem(next.state->colliderCenters, from, std::size_t(to));
    }
    renumbered(isCloth(object) ? "Reorder cloths" : "Reorder colliders", std::move(next), clothMap, colliderMap);
    return {};
}

std::string EditDocument::rename(SceneObject object, std::string name)
{
    if (std::string error = checkObjects({ object }, false); !error.empty())
        return error;
    if (name.empty())
        return "a name cannot be empty";
    Scene next = *m_scene;
    if (isCloth(object))
        next.cloths[std::size_t(object.index)].name = std::move(name);
    else
        next.colliders[std::size_t(object.index)].name = std::move(name);
    return setPresentation(isCloth(object) ? "Rename cloth" : "Rename collider", std::move(next));
}

std::string EditDocument::setHidden(const std::vector<SceneObject> &objects, bool hidden)
{
    if (std::string error = checkObjects(objects, false); !error.empty())
        return error;
    Scene next = *m_scene;
    for (const SceneObject &o : objects) {
        if (isCloth(o))
            next.cloths[std::size_t(o.index)].hidden = hidden;
        else
            next.colliders[std::size_t(o.index)].hidden = hidden;
    }
    return setPresentation(describe(normalised(objects), hidden ? "Hide" : "Show"), std::move(next));
}

} // namespace drape
