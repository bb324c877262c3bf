// The cURL command and the six list formats live in the contracts: the public API serves the same lists.
export * from '@bytegate/contracts/proxy-list';
