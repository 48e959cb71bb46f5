/**
 * Sets `key` as an own property of a plain record. Unlike `record[key] = value`, an id such as "__proto__" becomes a
 * key like any other (the assignment would set the record's prototype instead, and the entry would vanish from its
 * keys and its JSON). For records keyed by data: query and document ids.
 */
export function setKey<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}
