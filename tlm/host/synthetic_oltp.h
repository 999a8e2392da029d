// The page writes of an OLTP database that grows over the phase (pattern `oltp`), built to show
// the three characteristics the 2R paper measures on TPC-C and LinkBench write traces (M. Kang,
// S. Choi, G. Oh, S.-W. Lee, "2R: Efficiently Isolating Cold Pages in Flash Storages", PVLDB
// 13(11), 2020, section 2.2): write skew, temporal locality with stark hot-to-cold transitions,
// and frozen pages.
//
// The database is pages 0..size-1 of the stream's region, one page per `align` bytes, page p at
// region start + p * align. It starts with I0 pages and grows by appending pages at its end, up
// to F pages. Time counts the stream's writes. Each write is one of three kinds, drawn with one
// uniform number u per write (s = insert_fraction, r = hot_rewrites):
//   insert   u < s, while size < F: page `size` is appended (size + 1) and becomes hot;
//   touch    s <= u < 1 / (1 + r): a page of the warm pool is drawn by zipf rank, P(rank k) ~
//            k^-alpha over the pool's M pages (ZipfSampler; alpha 0 is uniform), is written and
//            becomes hot unless it is hot already;
//   rewrite  u >= 1 / (1 + r): a hot page drawn uniformly is written again (a touch while no
//            page is hot yet).
// The hot pages are the last H (hot_window) pages that became hot, a FIFO. An insert or a touch
// thus starts a hot phase: the page gets about r rewrites, spread over the next H (1 + r) writes
// (the window's length in writes), and then none at all when it leaves the window: the
// transition is stark, as in a TPC-C order_line page written until it is full. An inserted page
// leaving the window for the first time freezes with probability f (frozen_fraction) and is
// never written again; otherwise it joins the warm pool at its coldest rank. The warm pool starts
// as the I0 initial pages, ranks scattered over them by a seeded permutation (RankScatter): the
// initial database holds the hottest pages (TPC-C's stock, customer and district rows).
//
// Phase length: the database reaches F pages after (F - I0) / s writes, that is
// (db_final_size - db_initial_size) / insert_fraction bytes of one-page writes (the TPC-C trace
// of the paper grew 1 GB to 10 GB over 480 GB written: s ~ 0.02). Afterwards the database stops
// growing and inserts become touches; a shorter phase ends with a smaller database.
//
// Why the properties hold (measured on the generated stream by tb/tests/workload/
// synthetic_oltp_test.cpp over the growth of a 65536-page database with the defaults s = 0.02,
// r = 4, H = 256, f = 0.8, alpha = 0.9, I0 = F / 10):
//   skew      a hot phase is about 1 + r writes, and there are 1 / (s (1 + r)) = 10 of them per
//             inserted page: its insert and 9 touches of the warm pool, which holds only the
//             initial pages and the (1 - f) of inserted pages that did not freeze; zipf sends
//             the touches mostly to its top ranks (88 % of the writes go to the top 20 % of the
//             pages; frozen_fraction 0 with alpha 0 gives 46 %);
//   locality  hot phases of about r rewrites within H (1 + r) writes end at once, and a page
//             leaving the window is frozen or a warm page, mostly of low rank (4.0 rewrites per
//             hot phase, then a write rate 7.9 times lower over the next 10 H (1 + r) writes; 88 %
//             of the gaps between writes of a page are within H (1 + r) writes, 4 % between that
//             and ten times that; fio's zipf has the same rate before and after);
//   frozen    a share f of the inserted pages, the bulk of the pages written, freezes within
//             H (1 + r) writes of its insert, and warm pages of low rank add to them (66 % of the
//             pages written by the midpoint are frozen there, 75 % at four fifths; 15 % and 51 %
//             with frozen_fraction 0).
// The window should be small beside the database (H <= F / 64): with H = F / 16 a hot phase
// lasts so long that the warm pages are touched again soon after it (the rate drops three-fold).
//
// Reads and trims address a page of the current database, uniformly.
#pragma once

#include <cstdint>
#include <vector>

#include "tlm/host/synthetic_zipf.h"
#include "tlm/system/random.h"

namespace ssdvp::host {

class OltpDatabase {
 public:
  // The model's parameters in pages; the caller checks them against the scenario keys.
  struct Shape {
    uint32_t initial_pages = 1;     // I0 >= 1
    uint32_t final_pages = 1;       // F >= I0
    double insert_fraction = 0.02;  // s in (0, 1 / (1 + r)]
    uint32_t hot_window = 256;      // H in 1..F
    double hot_rewrites = 4.0;      // r >= 0
    double frozen_fraction = 0.8;   // f in [0, 1]
    double alpha = 0.9;             // >= 0
  };

  // `scatter_seed` places the initial ranks; every draw afterwards comes from the caller's Random.
  OltpDatabase(const Shape& shape, uint64_t scatter_seed);

  // The page the next write goes to.
  uint32_t next_write(Random& rng);
  // A page of the current database, uniformly (reads and trims).
  uint32_t any_page(Random& rng) const { return static_cast<uint32_t>(rng.below(size_)); }

  uint32_t size() const { return size_; }
  uint32_t warm_pages() const { return static_cast<uint32_t>(warm_.size()); }
  uint32_t frozen_pages() const { return frozen_; }

 private:
  enum : uint8_t { kHot = 1, kInserted = 2 };  // kInserted: not yet out of the window once

  void make_hot(uint32_t page, Random& rng);
  void leave_window(uint32_t page, Random& rng);
  uint32_t touched_page(Random& rng);

  Shape shape_;
  double phase_start_share_;  // 1 / (1 + r): the writes that start a hot phase
  uint32_t size_;
  uint32_t frozen_ = 0;
  std::vector<uint8_t> state_;   // per page of the final database
  std::vector<uint32_t> warm_;   // the warm pool by rank: warm_[k - 1] has rank k
  ZipfSampler zipf_;             // over warm_.size() ranks, rebuilt when the pool grows
  std::vector<uint32_t> window_;  // the hot pages; once full, window_[oldest_] leaves next
  uint32_t oldest_ = 0;
};

}  // namespace ssdvp::host
