// `as const` keeps the golden files' literal types ('function', 'object', ...) but makes every
// array and property readonly; the SDKs' tool types are mutable. Mutable<T> removes only the
// readonly modifiers, so an assignment of mutable(x) checks exactly the golden's shape and values.
export type Mutable<T> = T extends readonly unknown[] ? { -readonly [K in keyof T]: Mutable<T[K]> } : T extends object ? { -readonly [K in keyof T]: Mutable<T[K]> } : T;

export declare function mutable<T>(value: T): Mutable<T>;
