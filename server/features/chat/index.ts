import { defineFeature } from '../../app-context';
import { registerChatRoutes } from './chat.routes';

export const chatFeature = defineFeature({ name: 'chat', register: registerChatRoutes });
