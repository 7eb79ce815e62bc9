// Where a person's data exports are kept (ADR 0403): the gateway writes them, and the image
// service, which removes a closed account's files, removes this folder with them.
export const exportFolder = (userId: string) => `exports/${userId}/`;
