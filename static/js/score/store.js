// Where the offline queue is kept: the browser's IndexedDB, one object store of
// entries in the order they were made (their ids), read per match. A corrected
// entry is put back under its own id, so it keeps its place.
//
// The queue's sending (send.js) takes any object with the same three methods; the
// tests give it one kept in memory (tests/js/fake_server.js).
(function (root, make) {
  "use strict";
  if (typeof module === "object" && module.exports) {
    module.exports = make();
  } else {
    root.fiftysix = root.fiftysix || {};
    root.fiftysix.score = root.fiftysix.score || {};
    root.fiftysix.score.store = make();
  }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  function open(indexedDB) {
    return new Promise((resolve, reject) => {
      const request = indexedDB.open("fiftysix-queue", 1);
      request.onupgradeneeded = () => {
        const entries = request.result.createObjectStore("entries", { keyPath: "id", autoIncrement: true });
        entries.createIndex("match", "match");
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }

  // The queue of one match: entries() in order, put(entry) (a new one gets its id,
  // which it returns), drop(id).
  function queueOf(indexedDB, match) {
    let opened = null;
    const database = () => (opened = opened || open(indexedDB));

    function transact(mode, work) {
      return database().then((db) => new Promise((resolve, reject) => {
        const tx = db.transaction("entries", mode);
        const request = work(tx.objectStore("entries"));
        tx.oncomplete = () => resolve(request ? request.result : undefined);
        tx.onerror = () => reject(tx.error);
        tx.onabort = () => reject(tx.error);
      }));
    }

    return {
      entries: () => transact("readonly", (s) => s.index("match").getAll(match))
        .then((rows) => rows.sort((a, b) => a.id - b.id)),
      get: (id) => transact("readonly", (s) => s.get(id)),
      put: (entry) => transact("readwrite", (s) => s.put({ ...entry, match })),
      drop: (id) => transact("readwrite", (s) => s.delete(id)),
    };
  }

  return { queueOf };
});
