// The API's request and response shapes as zod schemas, one module per feature under ./schemas; this index re-exports them all.
// The server validates and documents its routes with them, and the islands take their types from them (type-only imports, so no zod reaches the browser).
export * from './schemas/ids';
export * from './schemas/common';
export * from './schemas/account';
export * from './schemas/uploads';
export * from './schemas/gallery';
export * from './schemas/mod';
export * from './schemas/players';
export * from './schemas/premium';
export * from './schemas/bot';
export * from './schemas/admin';
export * from './schemas/creators';
