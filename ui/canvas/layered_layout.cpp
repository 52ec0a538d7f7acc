#include "ui/canvas/layered_layout.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <vector>

#include <QHash>

namespace variate::ui {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

class Layout {
 public:
  Layout(const QList<LayoutNode>& nodes, const QList<LayoutEdge>& edges, const QList<PlateNesting>& plates,
         const LayoutOptions& options)
      : nodes_(nodes), options_(options), n_(static_cast<int>(nodes.size())) {
    QHash<QString, int> index;
    for (int i = 0; i < n_; ++i) index.insert(nodes[i].id, i);
    parents_.resize(n_);
    children_.resize(n_);
    for (const auto& edge : edges) {
      const int from = index.value(edge.from, -1), to = index.value(edge.to, -1);
      if (from < 0 || to < 0 || from == to) continue;
      if (std::find(children_[from].begin(), children_[from].end(), to) != children_[from].end()) continue;
      children_[from].push_back(to);
      parents_[to].push_back(from);
      offsets_[{from, to}] = edge.toOffset;
    }
    buildClusters(plates);
  }

  NodePositions run() {
    if (n_ == 0) return {};
    assignLayers();
    x_.assign(n_, 0);
    key_.resize(n_);
    std::iota(key_.begin(), key_.end(), 0.0);
    // Sweeps alternate as in Sugiyama et al.: order by the parents, then by the children;
    // the last is by the children, so the likelihood's slots decide the final order.
    for (int iteration = 0; iteration < options_.iterations; ++iteration) {
      placeCluster(0);
      updateKeys(iteration % 2 == 0 ? parents_ : children_);
    }
    placeCluster(0);
    for (int pass = 0; pass < 4; ++pass) balance(pass % 2 == 0);
    return positions();
  }

 private:
  struct Item {
    bool cluster = false;
    int index = 0;
  };
  struct Cluster {
    int parent = -1;
    int depth = 0;
    std::vector<int> nodes;     // drawn directly in it
    std::vector<int> children;  // nested clusters
    std::vector<int> members;   // every node inside, nested ones included
    int top = INT_MAX, bottom = -1;
    double left = 0, width = 0;
    std::vector<Item> order;
  };

  double padding(int cluster) const { return cluster == 0 ? 0.0 : options_.plate.padding; }

  void buildClusters(const QList<PlateNesting>& plates) {
    clusters_.push_back({});
    QHash<QString, int> clusterOf;
    clusterOf.insert(QString(), 0);
    auto ensure = [&](const QString& id, const QString& parent) {
      if (clusterOf.contains(id)) return clusterOf.value(id);
      const int p = clusterOf.value(parent, 0);
      Cluster c;
      c.parent = p;
      c.depth = clusters_[p].depth + 1;
      clusters_.push_back(c);
      const int i = static_cast<int>(clusters_.size()) - 1;
      clusters_[p].children.push_back(i);
      clusterOf.insert(id, i);
      return i;
    };
    for (const auto& plate : plates) ensure(plate.id, plate.parent);
    for (int i = 0; i < n_; ++i) {
      QString parent;
      int c = 0;
      for (const auto& plate : nodes_[i].plates) {  // nodes may name plates the list lacks
        c = ensure(plate, parent);
        parent = plate;
      }
      clusters_[c].nodes.push_back(i);
      for (int k = c; k >= 0; k = clusters_[k].parent) clusters_[k].members.push_back(i);
    }
    for (const auto& c : clusters_) maxDepth_ = std::max(maxDepth_, c.depth);
  }

  // Longest path from the sources; then each source moves down to just above its
  // highest child, so priors sit next to what they feed.
  void assignLayers() {
    std::vector<int> missing(n_), topological;
    for (int i = 0; i < n_; ++i) missing[i] = static_cast<int>(parents_[i].size());
    std::vector<int> ready;
    for (int i = n_ - 1; i >= 0; --i) {
      if (missing[i] == 0) ready.push_back(i);
    }
    std::vector<bool> done(n_, false);
    while (topological.size() < static_cast<size_t>(n_)) {
      if (ready.empty()) {  // a cycle (only in a model the checker rejects): break it
        for (int i = 0; i < n_; ++i) {
          if (!done[i]) {
            ready.push_back(i);
            break;
          }
        }
      }
      const int i = ready.back();
      ready.pop_back();
      if (done[i]) continue;
      done[i] = true;
      topological.push_back(i);
      for (int child : children_[i]) {
        if (--missing[child] == 0 && !done[child]) ready.push_back(child);
      }
    }
    layer_.assign(n_, 0);
    for (int i : topological) {
      for (int child : children_[i]) {
        if (done[child]) layer_[child] = std::max(layer_[child], layer_[i] + 1);
      }
    }
    for (int i = 0; i < n_; ++i) {
      if (!parents_[i].empty() || children_[i].empty()) continue;
      int highest = INT_MAX;
      for (int child : children_[i]) highest = std::min(highest, layer_[child]);
      layer_[i] = std::max(0, highest - 1);
    }
  }

  void shiftCluster(int c, double dx) {
    clusters_[c].left += dx;
    for (int child : clusters_[c].children) shiftCluster(child, dx);
    for (int i : clusters_[c].nodes) x_[i] += dx;
  }

  double itemKey(const Item& item) const {
    if (!item.cluster) return key_[item.index];
    const auto& members = clusters_[item.index].members;
    double sum = 0;
    for (int i : members) sum += key_[i];
    return members.empty() ? 0 : sum / members.size();
  }

  std::pair<int, int> itemLayers(const Item& item) const {
    if (!item.cluster) return {layer_[item.index], layer_[item.index]};
    return {clusters_[item.index].top, clusters_[item.index].bottom};
  }

  // Lays out a cluster in its own coordinates (its box's left edge at 0): nested clusters
  // first, then its items left to right in barycenter order, each as far left as the
  // layers it spans allow.
  void placeCluster(int c) {
    Cluster& cluster = clusters_[c];
    cluster.order.clear();
    cluster.top = INT_MAX;
    cluster.bottom = -1;
    for (int child : cluster.children) {
      placeCluster(child);
      cluster.order.push_back({true, child});
    }
    for (int i : cluster.nodes) cluster.order.push_back({false, i});
    for (int i : cluster.members) {
      cluster.top = std::min(cluster.top, layer_[i]);
      cluster.bottom = std::max(cluster.bottom, layer_[i]);
    }
    std::stable_sort(cluster.order.begin(), cluster.order.end(),
                     [&](const Item& a, const Item& b) { return itemKey(a) < itemKey(b); });
    std::map<int, double> right;
    const double gap = options_.horizontalGap;
    const double pad = padding(c);
    for (const Item& item : cluster.order) {
      const auto [top, bottom] = itemLayers(item);
      const double width = item.cluster ? clusters_[item.index].width : nodes_[item.index].size.width();
      double x = 0;
      for (int l = top; l <= bottom; ++l) {
        if (right.count(l)) x = std::max(x, right[l] + gap);
      }
      for (int l = top; l <= bottom; ++l) right[l] = x + width;
      if (item.cluster) {
        shiftCluster(item.index, x + pad - clusters_[item.index].left);
      } else {
        x_[item.index] = x + pad;
      }
    }
    double content = 0;
    for (const auto& entry : right) content = std::max(content, entry.second);
    cluster.left = 0;
    cluster.width = content + 2 * pad;
  }

  double center(int i) const { return x_[i] + nodes_[i].size.width() / 2; }

  // Where node i's centre lines up with neighbour j: under the slot it feeds, or over the
  // slot j feeds.
  double target(int i, int j) const {
    const auto down = offsets_.find({i, j});
    if (down != offsets_.end()) return center(j) + down->second;
    const auto up = offsets_.find({j, i});
    return center(j) - (up != offsets_.end() ? up->second : 0.0);
  }

  std::vector<int> neighbours(int i) const {
    std::vector<int> all = parents_[i];
    all.insert(all.end(), children_[i].begin(), children_[i].end());
    return all;
  }

  void updateKeys(const std::vector<std::vector<int>>& adjacent) {
    for (int i = 0; i < n_; ++i) {
      const auto& around = adjacent[i];
      if (around.empty()) {
        key_[i] = center(i);
        continue;
      }
      double sum = 0;
      for (int j : around) sum += target(i, j);
      key_[i] = sum / around.size();
    }
  }

  std::pair<double, double> extent(const Item& item) const {
    if (item.cluster) return {clusters_[item.index].left, clusters_[item.index].left + clusters_[item.index].width};
    return {x_[item.index], x_[item.index] + nodes_[item.index].size.width()};
  }

  // Moves each item (a node, or a nested plate as a whole) toward the mean of its outside
  // neighbours, never past the items beside it in the layers it shares with them nor out
  // of its own plate. Order never changes, so neither do crossings.
  void balance(bool forward) {
    std::vector<int> queue = {0};
    for (size_t q = 0; q < queue.size(); ++q) {
      const int c = queue[q];
      Cluster& cluster = clusters_[c];
      for (int child : cluster.children) queue.push_back(child);
      const int count = static_cast<int>(cluster.order.size());
      for (int step = 0; step < count; ++step) {
        const int k = forward ? step : count - 1 - step;
        const Item item = cluster.order[k];
        const double shift = desiredShift(item);
        if (shift == 0) continue;
        const auto [left, right] = extent(item);
        const auto [top, bottom] = itemLayers(item);
        double low = c == 0 ? -kInfinity : cluster.left + padding(c) - left;
        double high = c == 0 ? kInfinity : cluster.left + cluster.width - padding(c) - right;
        for (int j = 0; j < count; ++j) {
          if (j == k) continue;
          const auto [otherTop, otherBottom] = itemLayers(cluster.order[j]);
          if (otherBottom < top || otherTop > bottom) continue;
          const auto [otherLeft, otherRight] = extent(cluster.order[j]);
          if (j < k) low = std::max(low, otherRight + options_.horizontalGap - left);
          if (j > k) high = std::min(high, otherLeft - options_.horizontalGap - right);
        }
        if (low > high) continue;
        const double applied = std::clamp(shift, low, high);
        if (item.cluster) {
          shiftCluster(item.index, applied);
        } else {
          x_[item.index] += applied;
        }
      }
    }
  }

  double desiredShift(const Item& item) const {
    std::vector<int> members = item.cluster ? clusters_[item.index].members : std::vector<int>{item.index};
    double sum = 0;
    int count = 0;
    for (int m : members) {
      for (int j : neighbours(m)) {
        if (std::find(members.begin(), members.end(), j) != members.end()) continue;
        sum += target(m, j) - center(m);
        ++count;
      }
    }
    return count == 0 ? 0 : sum / count;
  }

  NodePositions positions() const {
    double height = 0;
    for (const auto& node : nodes_) height = std::max(height, node.size.height());
    // Each nesting level adds a margin above and a margin plus a label below its nodes.
    const double margins = maxDepth_ * (2 * options_.plate.padding + options_.plate.labelHeight) + 16;
    const double step = height + std::max(options_.verticalGap, margins);
    NodePositions result;
    for (int i = 0; i < n_; ++i) {
      // Whole pixels keep lines crisp and positions exact through the project's JSON.
      result.insert(nodes_[i].id, QPointF(std::round(center(i)), std::round(layer_[i] * step + height / 2)));
    }
    return result;
  }

  const QList<LayoutNode>& nodes_;
  LayoutOptions options_;
  int n_;
  std::vector<std::vector<int>> parents_, children_;
  std::map<std::pair<int, int>, double> offsets_;  // (parent, child) -> slot offset on the child
  std::vector<Cluster> clusters_;
  int maxDepth_ = 0;
  std::vector<int> layer_;
  std::vector<double> x_;
  std::vector<double> key_;
};

}  // namespace

NodePositions layeredLayout(const QList<LayoutNode>& nodes, const QList<LayoutEdge>& edges,
                            const QList<PlateNesting>& plates, const LayoutOptions& options) {
  return Layout(nodes, edges, plates, options).run();
}

}  // namespace variate::ui
